// Placeholders in statement text: `#{name…}` and `${name…}` are found once per text node, so a
// loop can rename their head (`item` → `__frch_item_0`) without scanning the text again.

import { type Placeholder, TextNode } from "./_nodes.ts";

const TEXT_TOKEN = /"(?:[^"\\]|\\.)*"?|\\[#$@]\{|([#$])\{(\s*)([A-Za-z_$][\w$]*)([^}]*\}?)/g;
const SPLICE = /\$\{(\s*)([A-Za-z_$][\w$]*)([^}]*\}?)/g;

/** A text node with its `#{…}`/`${…}` placeholders split out (`#{` inside JSON strings is text). */
export function textNode(text: string): TextNode {
  const parts: (string | Placeholder)[] = [];
  let from = 0;
  const add = (at: number, length: number, before: string, head: string, after: string) => {
    if (at > from) parts.push(text.slice(from, at));
    parts.push({ before, head, after });
    from = at + length;
  };
  for (const m of text.matchAll(TEXT_TOKEN)) {
    if (m[0].startsWith('"')) {
      // Inside a JSON string the template layer still splices `${…}`; `#{…}` there is text.
      for (const s of m[0].matchAll(SPLICE)) {
        add(m.index + s.index, s[0].length, "${" + s[1], s[2] as string, s[3] ?? "");
      }
    } else if (m[3] !== undefined) add(m.index, m[0].length, `${m[1]}{${m[2]}`, m[3], m[4] ?? "");
  }
  if (from < text.length) parts.push(text.slice(from));
  return new TextNode(text, parts);
}
