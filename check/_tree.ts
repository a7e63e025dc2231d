// A lenient, position-keeping reader of console command text for the checker: it splits a text
// into commands (method, target, body values) and reads each body into a tree whose every node
// knows its offset, so a diagnostic can point at the exact token. It accepts what the driver and
// the template accept inside a body: comments, `?` placeholders, `#{name}` named arguments,
// `${name}` splices and `@{rule, …}` calls (the last two are opaque: their members are unknown).
// Validation proper is the driver's (`parseScript`); this reader only gives up quietly.

/** A JSON value in a body, with its offsets in the whole text. */
export interface JNode {
  readonly kind: "object" | "array" | "string" | "number" | "boolean" | "null" | "slot";
  /** Offset of the first character. */
  readonly at: number;
  /** Offset after the last character. */
  end: number;
  /** The literal value of a scalar. */
  readonly value?: string | number | boolean | null;
  /** Members of an object. */
  readonly members?: Member[];
  /** Items of an array. */
  readonly items?: JNode[];
  /** True when an object or array holds rule calls or splices (its members are not all known). */
  dynamic?: boolean;
  /** For a slot: the `#{…}` name (root and path), or undefined for `?` and `${…}`. */
  readonly named?: string;
  /** For a slot: true for a `${…}` splice. */
  readonly splice?: boolean;
  /** For a slot: true for a rule call whose value cannot be known (`@{in, :list}`, …). */
  readonly rule?: boolean;
}

/** One object member. */
export interface Member {
  readonly key: string;
  readonly keyAt: number;
  readonly keyEnd: number;
  /** True when the key is a placeholder (`?`, `#{…}`, `${…}`). */
  readonly keySlot: boolean;
  readonly value: JNode;
}

/** One command of a text. */
export interface RawCommand {
  readonly method: string;
  readonly methodAt: number;
  /** The request target as written (path and query). */
  readonly target: string;
  readonly targetAt: number;
  /** The body values in order (one for JSON, one per line for NDJSON). */
  readonly body: JNode[];
  /** Named arguments (`#{…}`) met in the target, with their offsets. */
  readonly targetNames: { name: string; at: number; end: number }[];
  /** True when the body could not be read (the driver reports why). */
  readonly unreadable: boolean;
}

import { commentEnd, isMethodAt, stringEnd } from "../driver/internal.ts";

class Stop extends Error {}

/** Reads a whole text into commands. */
export function readCommands(text: string): RawCommand[] {
  const out: RawCommand[] = [];
  let i = 0;
  const n = text.length;

  const skipTrivia = (): void => {
    while (i < n) {
      const c = text[i]!;
      if (c === " " || c === "\t" || c === "\r" || c === "\n" || c === "\ufeff" || c === ";") i++;
      else {
        const after = commentEnd(text, i);
        if (after === i) return;
        i = after < 0 ? n : after;
      }
    }
  };

  const methodAt = (at: number): string | undefined => {
    if (!isMethodAt(text, at)) return undefined;
    let j = at;
    while (j < n && /[A-Za-z]/.test(text[j]!)) j++;
    return text.slice(at, j).toUpperCase();
  };

  while (true) {
    skipTrivia();
    if (i >= n) break;
    const start = i;
    const method = methodAt(i);
    if (!method) {
      // Not a command start: skip the line (the driver reports it).
      while (i < n && text[i] !== "\n") i++;
      continue;
    }
    i += method.length;
    while (i < n && (text[i] === " " || text[i] === "\t")) i++;
    // As in the driver, the path may stand on the next line.
    let k = i;
    while (k < n && /\s/.test(text[k]!)) k++;
    if (k > i && k < n && !"{[#;".includes(text[k]!) && !methodAt(k)) i = k;
    const targetAt = i;
    const targetNames: { name: string; at: number; end: number }[] = [];
    while (i < n && !/\s/.test(text[i]!) && text[i] !== ";") {
      if ((text[i] === "#" || text[i] === "$" || text[i] === "@") && text[i + 1] === "{") {
        const close = text.indexOf("}", i);
        if (close < 0) break;
        if (text[i] === "#") {
          targetNames.push({
            name: text.slice(i + 2, close).split(",")[0]!.trim(),
            at: i,
            end: close + 1,
          });
        }
        i = close + 1;
      } else i++;
    }
    const target = text.slice(targetAt, i);
    const body: JNode[] = [];
    let unreadable = false;
    while (true) {
      skipTrivia();
      if (i >= n || methodAt(i)) break;
      try {
        const reader = new BodyReader(text, i);
        body.push(reader.value());
        i = reader.i;
      } catch (e) {
        if (!(e instanceof Stop)) throw e;
        unreadable = true;
        // Skip to the next line starting with a method.
        while (i < n) {
          const nl = text.indexOf("\n", i);
          if (nl < 0) {
            i = n;
            break;
          }
          i = nl + 1;
          if (methodAt(i)) break;
        }
        break;
      }
    }
    out.push({ method, methodAt: start, target, targetAt, body, targetNames, unreadable });
  }
  return out;
}

class BodyReader {
  i: number;
  constructor(readonly text: string, at: number) {
    this.i = at;
  }

  trivia(): void {
    const t = this.text;
    while (this.i < t.length) {
      const c = t[this.i]!;
      if (c === " " || c === "\t" || c === "\r" || c === "\n") this.i++;
      else {
        const after = commentEnd(t, this.i);
        if (after === this.i) return;
        if (after < 0) throw new Stop();
        this.i = after;
      }
    }
  }

  /** `#{…}`, `${…}` or `@{…}` at i: returns its kind and moves past it. */
  marker(): { kind: "#" | "$" | "@"; name: string; at: number; close: number } | undefined {
    const t = this.text;
    const c = t[this.i];
    if ((c !== "#" && c !== "$" && c !== "@") || t[this.i + 1] !== "{") return undefined;
    const at = this.i;
    let depth = 0;
    let j = this.i + 1;
    for (; j < t.length; j++) {
      const d = t[j];
      if (d === '"') {
        j = this.skipString(j) - 1;
        continue;
      }
      if (d === "{") depth++;
      else if (d === "}" && --depth === 0) break;
    }
    if (j >= t.length) throw new Stop();
    this.i = j + 1;
    return { kind: c, name: t.slice(at + 2, j).split(",")[0]!.trim(), at, close: j };
  }

  skipString(at: number): number {
    const end = stringEnd(this.text, at);
    if (end < 0) throw new Stop();
    return end;
  }

  value(): JNode {
    this.trivia();
    const t = this.text;
    const at = this.i;
    const c = t[at];
    if (c === "{") return this.object();
    if (c === "[") return this.array();
    if (c === '"') {
      const end = this.skipString(at);
      this.i = end;
      const raw = t.slice(at, end);
      let value: string;
      try {
        value = raw.startsWith('"""') ? raw.slice(3, -3) : JSON.parse(raw);
      } catch {
        value = raw.slice(1, -1);
      }
      return { kind: "string", at, end, value };
    }
    if (c === "?") {
      this.i++;
      return { kind: "slot", at, end: at + 1 };
    }
    const m = this.marker();
    if (m) {
      if (m.kind === "@") {
        // A rule's fragment stands for the value; other rules for a value we cannot know.
        const from = fragmentStart(t, m);
        if (from < 0) return { kind: "slot", at, end: this.i, rule: true };
        const inner = new BodyReader(t.slice(0, m.close), from);
        const value = inner.value();
        inner.trivia();
        if (inner.i < m.close) throw new Stop();
        return value;
      }
      return m.kind === "#"
        ? { kind: "slot", at, end: this.i, named: m.name }
        : { kind: "slot", at, end: this.i, splice: true };
    }
    const word = /^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(t.slice(at, at + 64));
    if (!word) throw new Stop();
    this.i = at + word[0].length;
    const w = word[0];
    if (w === "true" || w === "false") {
      return { kind: "boolean", at, end: this.i, value: w === "true" };
    }
    if (w === "null") return { kind: "null", at, end: this.i, value: null };
    return { kind: "number", at, end: this.i, value: Number(w) };
  }

  object(): JNode {
    const at = this.i++;
    const node: JNode = { kind: "object", at, end: at, members: [] };
    this.members(node, true);
    node.end = this.i;
    return node;
  }

  /** Reads members into `node` up to its `}` (or, in a rule's fragment, to the text's end). */
  members(node: JNode, closed: boolean): void {
    const members = node.members!;
    const t = this.text;
    while (true) {
      this.trivia();
      if (!closed && this.i >= t.length) break;
      if (t[this.i] === "}" && closed) {
        this.i++;
        break;
      }
      if (t[this.i] === ",") {
        this.i++;
        continue;
      }
      const keyAt = this.i;
      let key = "";
      let keySlot = false;
      if (t[keyAt] === '"') {
        this.i = this.skipString(keyAt);
        try {
          key = JSON.parse(t.slice(keyAt, this.i));
        } catch {
          key = t.slice(keyAt + 1, this.i - 1);
        }
      } else if (t[keyAt] === "?") {
        this.i++;
        keySlot = true;
      } else {
        const m = this.marker();
        if (!m) throw new Stop();
        if (m.kind === "@") {
          node.dynamic = true;
          const from = fragmentStart(t, m);
          if (from >= 0) new BodyReader(t.slice(0, m.close), from).members(node, false);
          continue;
        }
        keySlot = true;
        if (m.kind === "$") node.dynamic = true;
      }
      const keyEnd = this.i;
      this.trivia();
      if (t[this.i] !== ":") {
        // `${splice}` standing for whole members.
        if (keySlot) {
          node.dynamic = true;
          continue;
        }
        throw new Stop();
      }
      this.i++;
      const value = this.value();
      members.push({ key, keyAt, keyEnd, keySlot, value });
    }
  }

  array(): JNode {
    const at = this.i++;
    const items: JNode[] = [];
    const node: JNode = { kind: "array", at, end: at, items };
    const t = this.text;
    while (true) {
      this.trivia();
      if (t[this.i] === "]") {
        this.i++;
        break;
      }
      if (t[this.i] === ",") {
        this.i++;
        continue;
      }
      if (t[this.i] === "@" && t[this.i + 1] === "{") {
        const m = this.marker()!;
        node.dynamic = true;
        const from = fragmentStart(t, m);
        if (from >= 0) {
          const inner = new BodyReader(t.slice(0, m.close), from);
          while (true) {
            inner.trivia();
            if (inner.i >= m.close) break;
            if (inner.text[inner.i] === ",") inner.i++;
            else items.push(inner.value());
          }
        }
        continue;
      }
      if (this.i >= t.length) throw new Stop();
      items.push(this.value());
    }
    node.end = this.i;
    return node;
  }
}

/** The rules whose last part is a fragment of the body (`@{and, f}`, `@{if, test, f}`). */
const FRAGMENT_PARTS: Record<string, number> = { and: 1, if: 2 };

/**
 * Where a rule call's fragment starts (after its name and tests), or -1 for a rule without one.
 * The fragment is read in place, so its placeholders and content are checked like the body's.
 */
function fragmentStart(t: string, m: { at: number; close: number; name: string }): number {
  const parts = FRAGMENT_PARTS[m.name.toLowerCase()];
  if (parts === undefined) return -1;
  let commas = 0;
  let depth = 0;
  for (let j = m.at + 2; j < m.close; j++) {
    const c = t[j];
    if (c === '"' || c === "'") {
      const close = t.indexOf(c, j + 1);
      if (close < 0 || close > m.close) return -1;
      j = close;
    } else if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth--;
    else if (c === "," && depth === 0 && ++commas === parts) return j + 1;
  }
  return -1;
}
