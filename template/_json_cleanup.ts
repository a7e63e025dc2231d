// After optional members vanish, their commas must go too: a comma right after `[`, `{`, `,` or
// at the start, and a comma right before `]`/`}` are removed. Strings and comments are skipped.

/** Removes empty members and dangling commas from rendered command text. */
export function removeEmptyMembers(text: string): string {
  const out: string[] = [];
  let last = ""; // last significant character written
  let lastComma = -1; // index in `out` of the last significant comma
  let i = 0;
  let from = 0;
  const push = (to: number) => {
    if (to > from) out.push(text.slice(from, to));
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      const triple = text.startsWith('"""', i);
      let j = i + (triple ? 3 : 1);
      while (j < text.length) {
        if (triple ? text.startsWith('"""', j) : text[j] === '"') break;
        j += text[j] === "\\" && !triple ? 2 : 1;
      }
      i = j + (triple ? 3 : 1);
      last = '"';
      continue;
    }
    if (c === "#" || (c === "/" && text[i + 1] === "/")) {
      const nl = text.indexOf("\n", i);
      i = nl < 0 ? text.length : nl;
      continue;
    }
    if (c === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2);
      i = close < 0 ? text.length : close + 2;
      continue;
    }
    if (c === ",") {
      push(i);
      from = i + 1;
      if (last === "" || last === "[" || last === "{" || last === ",") {
        i++;
        continue;
      }
      out.push(",");
      lastComma = out.length - 1;
      last = ",";
      i++;
      continue;
    }
    if (c === "]" || c === "}") {
      if (last === ",") out[lastComma] = "";
      last = c;
    } else if (c !== " " && c !== "\t" && c !== "\n" && c !== "\r") {
      last = c;
    }
    i++;
  }
  push(text.length);
  return out.join("");
}
