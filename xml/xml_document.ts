// The shapes the XML reader produces — a small document tree without comments or processing
// instructions — and the reader's interface, so another reader could replace it.

/**
 * One attribute: its name, decoded value and where the value starts (the first character after
 * the quote) — expression errors point inside it with {@linkcode attributePosition}.
 */
export interface XmlAttribute {
  /** The attribute's name. */
  readonly name: string;
  /** The value with references decoded and white space characters turned into spaces. */
  readonly value: string;
  /** The value as written between the quotes. */
  readonly raw: string;
  /** 1-based line of the value's first character. */
  readonly line: number;
  /** 1-based column of the value's first character. */
  readonly column: number;
}

/** An element with its attributes and children (comments and processing instructions dropped). */
export interface XmlElement {
  /** Always `"element"`. */
  readonly kind: "element";
  /** The tag name. */
  readonly name: string;
  /** The attributes in source order (names are unique). */
  readonly attributes: readonly XmlAttribute[];
  /** Child elements and text, in source order. */
  readonly children: readonly XmlNode[];
  /** 1-based line of the `<`. */
  readonly line: number;
  /** 1-based column of the `<`. */
  readonly column: number;
}

/** Character data: text (references decoded) or a CDATA section (verbatim). */
export interface XmlText {
  /** Always `"text"`. */
  readonly kind: "text";
  /** The characters. */
  readonly text: string;
  /** True for a `<![CDATA[…]]>` section. */
  readonly cdata: boolean;
  /** 1-based line of the first character. */
  readonly line: number;
  /** 1-based column of the first character. */
  readonly column: number;
}

/** A child of an element. */
export type XmlNode = XmlElement | XmlText;

/** The `<!DOCTYPE …>` declaration, when there is one. */
export interface XmlDoctype {
  /** The root element name it declares. */
  readonly name: string;
  /** The public identifier, if any. */
  readonly publicId?: string;
  /** The system identifier (never fetched), if any. */
  readonly systemId?: string;
  /** 1-based line of `<!DOCTYPE`. */
  readonly line: number;
  /** 1-based column of `<!DOCTYPE`. */
  readonly column: number;
}

/** A read document: the root element, the doctype, the file name and the (normalised) text. */
export interface XmlDocument {
  /** The root element. */
  readonly root: XmlElement;
  /** The DOCTYPE, when the file has one. */
  readonly doctype?: XmlDoctype;
  /** The file name or URL given to the reader. */
  readonly file?: string;
  /** The text with line ends normalised to `\n` (positions refer to it). */
  readonly text: string;
}

/** Options of {@linkcode readXml}. */
export interface XmlReadOptions {
  /** The file name or URL, for error messages. */
  file?: string;
  /** The deepest element nesting accepted (default 256). */
  maxDepth?: number;
}

/**
 * The reader interface: any function with this shape can replace {@linkcode readXml} (for example
 * one built on another XML library), as long as it refuses entities the same way.
 */
export type XmlReader = (text: string, options?: XmlReadOptions) => XmlDocument;

/**
 * The file position of a character inside an attribute's value, given its index in the decoded
 * value: references in the raw text are walked, so in `x &lt; y` index 2 (`<`) maps to the `&`.
 *
 * @param attribute The attribute.
 * @param index 0-based index into `attribute.value`.
 * @returns 1-based line and column in the file.
 *
 * @example
 * ```ts
 * import { attributePosition, readXml } from "@searchvisitor/searchvisitor/xml";
 * import assert from "node:assert/strict";
 *
 * const attr = readXml('<a t="x &lt; y"/>').root.attributes[0]!;
 * assert.equal(attr.value, "x < y");
 * assert.deepEqual(attributePosition(attr, 4), { line: 1, column: 14 }); // the y
 * ```
 */
export function attributePosition(
  attribute: XmlAttribute,
  index: number,
): { line: number; column: number } {
  let line = attribute.line;
  let column = attribute.column;
  let decoded = 0;
  for (let i = 0; i < attribute.raw.length && decoded < index; decoded++) {
    const step = attribute.raw[i] === "&" ? attribute.raw.indexOf(";", i) + 1 - i : 1;
    if (attribute.raw[i] === "\n") {
      line++;
      column = 1;
    } else column += Math.max(step, 1);
    i += Math.max(step, 1);
  }
  return { line, column };
}
