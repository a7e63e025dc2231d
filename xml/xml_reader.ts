// A strict, small XML reader: prolog, one DOCTYPE (external id only), elements, attributes, text,
// CDATA, comments and processing instructions (both skipped), the five predefined entities and
// numeric character references. Any other entity — and any entity declaration — is refused, never
// expanded; no DTD is ever fetched. One pass, no recursion (an explicit stack with a depth limit),
// every scan to a terminator by `indexOf`, so hostile input costs linear time.

import { XmlEntityError, type XmlPosition, XmlSyntaxError } from "./errors.ts";
import type {
  XmlAttribute,
  XmlDoctype,
  XmlDocument,
  XmlElement,
  XmlNode,
  XmlReadOptions,
  XmlText,
} from "./xml_document.ts";
import {
  checkCharacters,
  decodeReferences,
  LineIndex,
  NAME,
  normalizeAttribute,
  skipSpace,
} from "./_xml_text.ts";

type MutableElement = XmlElement & { children: XmlNode[] };

/**
 * Reads an XML document strictly. Comments and processing instructions are skipped; text keeps
 * its white space; entities other than the five predefined ones and numeric character references
 * are refused with an {@linkcode XmlEntityError}, every other problem is an
 * {@linkcode XmlSyntaxError} naming the file, line and column.
 *
 * @param text The document.
 * @param options The file name and the depth limit.
 * @returns The document tree.
 *
 * @example
 * ```ts
 * import { readXml } from "@searchvisitor/searchvisitor/xml";
 * import assert from "node:assert/strict";
 *
 * const doc = readXml('<?xml version="1.0"?>\n<a x="1 &lt; 2"><!-- c --><b/>t&amp;<![CDATA[<raw>]]></a>');
 * assert.equal(doc.root.name, "a");
 * assert.equal(doc.root.attributes[0]?.value, "1 < 2");
 * assert.deepEqual(doc.root.children.map((n) => n.kind === "text" ? n.text : `<${n.name}>`), ["<b>", "t&", "<raw>"]);
 * ```
 */
export function readXml(text: string, options: XmlReadOptions = {}): XmlDocument {
  return new Reader(text, options).read();
}

class Reader {
  readonly #text: string;
  readonly #file?: string;
  readonly #maxDepth: number;
  readonly #lines: LineIndex;
  #pos = 0;

  constructor(text: string, options: XmlReadOptions) {
    this.#text = text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
    if (options.file !== undefined) this.#file = options.file;
    this.#maxDepth = options.maxDepth ?? 256;
    this.#lines = new LineIndex(this.#text);
  }

  read(): XmlDocument {
    const text = this.#text;
    const bad = checkCharacters(text);
    if (bad >= 0) this.#fail("a character that XML does not allow; remove it", bad);
    if (text.charCodeAt(0) === 0xfeff) this.#pos = 1;
    if (text.startsWith("<?xml", this.#pos) && /[\s?]/.test(text[this.#pos + 5] ?? "")) {
      this.#declaration();
    }
    let doctype: XmlDoctype | undefined;
    let root: XmlElement | undefined;
    while (true) {
      this.#pos = skipSpace(text, this.#pos);
      if (this.#pos >= text.length) break;
      if (text.startsWith("<!--", this.#pos)) this.#comment();
      else if (text.startsWith("<?", this.#pos)) this.#instruction();
      else if (text.startsWith("<!DOCTYPE", this.#pos)) {
        if (doctype || root) this.#fail("only one DOCTYPE, before the root element", this.#pos);
        doctype = this.#doctype();
      } else if (text.charCodeAt(this.#pos) === 0x3c && !root) root = this.#content();
      else {
        this.#fail(
          root
            ? "text after the root element; a document has one root"
            : "expected the root element",
          this.#pos,
        );
      }
    }
    if (!root) this.#fail("the document has no root element", text.length);
    return {
      root,
      ...(doctype ? { doctype } : {}),
      ...(this.#file !== undefined ? { file: this.#file } : {}),
      text,
    };
  }

  #at(offset: number): XmlPosition {
    const { line, column } = this.#lines.position(offset);
    return {
      line,
      column,
      text: this.#text,
      ...(this.#file !== undefined ? { file: this.#file } : {}),
    };
  }

  #fail(problem: string, offset: number): never {
    throw new XmlSyntaxError(problem, this.#at(offset));
  }

  #entityFail = (problem: string, offset: number): never => {
    throw new XmlEntityError(problem, this.#at(offset));
  };

  #syntaxFail = (problem: string, offset: number): never => this.#fail(problem, offset);

  #declaration(): void {
    const end = this.#text.indexOf("?>", this.#pos);
    if (end < 0) this.#fail("the XML declaration is not closed with ?>", this.#pos);
    const body = this.#text.slice(this.#pos + 5, end);
    if (
      !/^\s+version\s*=\s*(["'])1\.[0-9]\1(\s+encoding\s*=\s*(["'])[A-Za-z][\w.-]*\3)?(\s+standalone\s*=\s*(["'])(yes|no)\5)?\s*$/
        .test(body)
    ) {
      this.#fail(
        'a malformed XML declaration; write <?xml version="1.0" encoding="UTF-8"?>',
        this.#pos,
      );
    }
    this.#pos = end + 2;
  }

  #comment(): void {
    const start = this.#pos;
    const end = this.#text.indexOf("--", start + 4);
    if (end < 0) this.#fail("the comment is not closed with -->", start);
    if (this.#text.charCodeAt(end + 2) !== 0x3e) this.#fail('"--" inside a comment', end);
    this.#pos = end + 3;
  }

  #instruction(): void {
    const start = this.#pos;
    NAME.lastIndex = start + 2;
    const m = NAME.exec(this.#text);
    if (!m) this.#fail("a processing instruction needs a target name", start + 2);
    if (m[0].toLowerCase() === "xml") {
      this.#fail("the XML declaration must come first in the file", start);
    }
    const end = this.#text.indexOf("?>", start + 2);
    if (end < 0) this.#fail("the processing instruction is not closed with ?>", start);
    this.#pos = end + 2;
  }

  #doctype(): XmlDoctype {
    const text = this.#text;
    const start = this.#pos;
    const { line, column } = this.#lines.position(start);
    let p = skipSpace(text, start + 9);
    if (p === start + 9) this.#fail("a space after <!DOCTYPE", p);
    NAME.lastIndex = p;
    const name = NAME.exec(text)?.[0];
    if (!name) this.#fail("<!DOCTYPE needs the root element name", p);
    p = skipSpace(text, p + name.length);
    let publicId: string | undefined;
    let systemId: string | undefined;
    const literal = (): string => {
      p = skipSpace(text, p);
      const quote = text[p];
      if (quote !== '"' && quote !== "'") this.#fail("expected a quoted identifier", p);
      const close = text.indexOf(quote, p + 1);
      if (close < 0) this.#fail("the identifier is not closed", p);
      const value = text.slice(p + 1, close);
      p = close + 1;
      return value;
    };
    if (text.startsWith("PUBLIC", p)) {
      p += 6;
      publicId = literal();
      systemId = literal();
    } else if (text.startsWith("SYSTEM", p)) {
      p += 6;
      systemId = literal();
    }
    p = skipSpace(text, p);
    if (text[p] === "[") p = this.#internalSubset(p + 1);
    p = skipSpace(text, p);
    if (text[p] !== ">") this.#fail("the DOCTYPE is not closed with >", p);
    this.#pos = p + 1;
    return {
      name,
      ...(publicId !== undefined ? { publicId } : {}),
      ...(systemId !== undefined ? { systemId } : {}),
      line,
      column,
    };
  }

  // Only comments, processing instructions and white space may stand in an internal subset:
  // entity declarations are refused (no expansion ever), and so are other declarations, since a
  // conforming reader would have to apply them (attribute defaults).
  #internalSubset(from: number): number {
    const text = this.#text;
    let p = from;
    while (true) {
      p = skipSpace(text, p);
      if (p >= text.length) this.#fail("the DOCTYPE's internal subset is not closed with ]", from);
      if (text[p] === "]") return p + 1;
      if (text.startsWith("<!--", p)) {
        this.#pos = p;
        this.#comment();
        p = this.#pos;
      } else if (text.startsWith("<?", p)) {
        this.#pos = p;
        this.#instruction();
        p = this.#pos;
      } else if (text.startsWith("<!ENTITY", p) || text[p] === "%") {
        this.#entityFail(
          "entity declarations are refused: entities are never expanded; remove the declaration",
          p,
        );
      } else {
        this.#fail(
          "declarations in an internal DTD subset are not supported; remove the [...] part",
          p,
        );
      }
    }
  }

  // The root element and everything inside it, iteratively.
  #content(): XmlElement {
    const text = this.#text;
    const stack: MutableElement[] = [];
    let root: XmlElement | undefined;
    while (true) {
      const p = this.#pos;
      if (p >= text.length) {
        const open = stack[stack.length - 1];
        if (!open) this.#fail("the document has no root element", p);
        this.#fail(`<${open.name}> (line ${open.line}) is not closed`, p);
      }
      const parent = stack[stack.length - 1];
      if (text.charCodeAt(p) !== 0x3c) {
        const lt = text.indexOf("<", p);
        const end = lt < 0 ? text.length : lt;
        if (parent) this.#textRun(parent, p, end);
        this.#pos = end;
        continue;
      }
      if (text.startsWith("</", p)) {
        const name = this.#endTag(p, parent);
        stack.pop();
        if (stack.length === 0) return root ?? this.#fail(`unexpected </${name}>`, p);
      } else if (text.startsWith("<!--", p)) this.#comment();
      else if (text.startsWith("<![CDATA[", p)) {
        const end = text.indexOf("]]>", p + 9);
        if (end < 0) this.#fail("the CDATA section is not closed with ]]>", p);
        if (!parent) this.#fail("a CDATA section outside the root element", p);
        parent.children.push(this.#textNode(text.slice(p + 9, end), p + 9, "cdata"));
        this.#pos = end + 3;
      } else if (text.startsWith("<?", p)) this.#instruction();
      else if (text.startsWith("<!", p)) {
        this.#fail("markup declarations are only allowed in the DOCTYPE", p);
      } else {
        const [element, selfClosing] = this.#startTag(p);
        if (parent) parent.children.push(element);
        else root = element;
        if (!selfClosing) {
          if (stack.length >= this.#maxDepth) {
            this.#fail(`elements nest deeper than ${this.#maxDepth} levels`, p);
          }
          stack.push(element);
        } else if (!parent) return element;
      }
    }
  }

  #textRun(parent: MutableElement, from: number, to: number): void {
    const raw = this.#text.slice(from, to);
    const cdataEnd = raw.indexOf("]]>");
    if (cdataEnd >= 0) this.#fail('"]]>" in text; write ]]&gt;', from + cdataEnd);
    const text = raw.includes("&")
      ? decodeReferences(raw, from, this.#entityFail, this.#syntaxFail)
      : raw;
    parent.children.push(this.#textNode(text, from, "text"));
  }

  /** A text node at `offset`, read from a `<![CDATA[…]]>` section or from plain text. */
  #textNode(text: string, offset: number, from: "cdata" | "text"): XmlText {
    const { line, column } = this.#lines.position(offset);
    return { kind: "text", text, cdata: from === "cdata", line, column };
  }

  #endTag(p: number, open: XmlElement | undefined): string {
    NAME.lastIndex = p + 2;
    const name = NAME.exec(this.#text)?.[0];
    if (!name) this.#fail("expected a tag name after </", p + 2);
    const q = skipSpace(this.#text, p + 2 + name.length);
    if (this.#text[q] !== ">") this.#fail(`the end tag </${name} is not closed with >`, q);
    if (!open || open.name !== name) {
      this.#fail(
        open
          ? `</${name}> does not close <${open.name}> (line ${open.line})`
          : `unexpected </${name}>`,
        p,
      );
    }
    this.#pos = q + 1;
    return name;
  }

  #startTag(p: number): [MutableElement, boolean] {
    const text = this.#text;
    NAME.lastIndex = p + 1;
    const name = NAME.exec(text)?.[0];
    if (!name) this.#fail("expected a tag name after <; write &lt; for a literal <", p);
    const { line, column } = this.#lines.position(p);
    const attributes: XmlAttribute[] = [];
    const seen = new Set<string>();
    let q = p + 1 + name.length;
    while (true) {
      const afterSpace = skipSpace(text, q);
      const c = text.charCodeAt(afterSpace);
      if (c === 0x3e) {
        this.#pos = afterSpace + 1;
        return [{ kind: "element", name, attributes, children: [], line, column }, false];
      }
      if (c === 0x2f) {
        if (text.charCodeAt(afterSpace + 1) !== 0x3e) {
          this.#fail("expected /> to end the tag", afterSpace);
        }
        this.#pos = afterSpace + 2;
        return [{ kind: "element", name, attributes, children: [], line, column }, true];
      }
      if (afterSpace >= text.length) this.#fail(`the tag <${name} is not closed with >`, p);
      if (afterSpace === q) this.#fail("expected a space, > or /> here", q);
      q = this.#attribute(afterSpace, attributes, seen);
    }
  }

  #attribute(p: number, into: XmlAttribute[], seen: Set<string>): number {
    const text = this.#text;
    NAME.lastIndex = p;
    const name = NAME.exec(text)?.[0];
    if (!name) this.#fail("expected an attribute name", p);
    if (seen.has(name)) this.#fail(`the attribute "${name}" is given twice`, p);
    seen.add(name);
    let q = skipSpace(text, p + name.length);
    if (text[q] !== "=") this.#fail(`expected = after the attribute name "${name}"`, q);
    q = skipSpace(text, q + 1);
    const quote = text[q];
    if (quote !== '"' && quote !== "'") this.#fail(`the value of "${name}" must be quoted`, q);
    const close = text.indexOf(quote, q + 1);
    if (close < 0) this.#fail(`the value of "${name}" is not closed with ${quote}`, q);
    const raw = text.slice(q + 1, close);
    const lt = raw.indexOf("<");
    if (lt >= 0) this.#fail("< in an attribute value; write &lt;", q + 1 + lt);
    const normalized = normalizeAttribute(raw);
    const value = normalized.includes("&")
      ? decodeReferences(normalized, q + 1, this.#entityFail, this.#syntaxFail)
      : normalized;
    const { line, column } = this.#lines.position(q + 1);
    into.push({ name, value, raw, line, column });
    return close + 1;
  }
}
