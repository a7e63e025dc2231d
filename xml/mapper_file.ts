// A mapper file: `<mapper namespace>` with statements, `<sql>` fragments and `<resultMap>`s. Read
// once: includes are expanded, expressions parsed, and each statement classified static (its text
// is computed here and reused by every render) or dynamic (a node tree rendered per call).

import { RenderContext } from "./_render_context.ts";
import { type Piece, StatementBuilder, toNode } from "./_tag_handlers.ts";
import type { SqlNode } from "./_nodes.ts";
import { readXml } from "./xml_reader.ts";
import type { XmlElement, XmlReader } from "./xml_document.ts";
import { checkDoctype, readResultMap, STATEMENT_ATTRIBUTES } from "./_mapper_parts.ts";
import type {
  MapperFile,
  MapperStatement,
  RenderedStatement,
  ResultMapDef,
  StatementTag,
} from "./types.ts";

/** Options of {@linkcode parseMapperFile}. */
export interface ParseMapperOptions {
  /** The file name or URL, for error messages. */
  file?: string;
  /** Another XML reader with the same contract (default: the built-in strict reader). */
  reader?: XmlReader;
}

const EMPTY_ARGS: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/** What a statement's element declares: its id, tag and line, and its optional attributes. */
type StatementDeclaration =
  & Pick<MapperStatement, "id" | "kind" | "line">
  & Pick<MapperStatement, "resultType" | "resultMap" | "useGeneratedKeys" | "keyProperty">;

class Statement implements MapperStatement {
  declare readonly resultType?: string;
  declare readonly resultMap?: string;
  declare readonly useGeneratedKeys?: boolean;
  declare readonly keyProperty?: string;
  readonly dynamic: boolean;
  readonly #text?: string;
  readonly #root?: SqlNode;

  readonly id: string;
  readonly kind: StatementTag;
  readonly line: number;

  /** A statement as its element declares it (id, tag, line, attributes), made of `pieces`. */
  constructor(declared: StatementDeclaration, pieces: readonly Piece[]) {
    Object.assign(this, declared);
    this.id = declared.id;
    this.kind = declared.kind;
    this.line = declared.line;
    this.dynamic = pieces.some((p) => typeof p !== "string");
    if (this.dynamic) this.#root = toNode(pieces);
    else this.#text = (pieces as string[]).join("").trim();
  }

  // A dynamic statement's text depends only on its choices (tests taken, branches, loop lengths),
  // never on the values, which stay arguments. So a render first walks the choices (`decide`,
  // which also collects the arguments), then takes the text made for the same choices before, or
  // renders it once. Bounded per statement.
  readonly #texts = new Map<
    number,
    { readonly decisions: readonly number[]; readonly text: string }
  >();

  render(args: Record<string, unknown>): RenderedStatement {
    const given = args ?? EMPTY_ARGS;
    if (this.#text !== undefined) return { text: this.#text, args: given };
    const root = this.#root as SqlNode;
    const ctx = new RenderContext(given);
    root.decide(ctx);
    const decisions = ctx.decisions;
    const key = hash(decisions);
    const known = this.#texts.get(key);
    let text: string;
    if (known !== undefined && same(known.decisions, decisions)) text = known.text;
    else {
      const full = new RenderContext(given, true);
      root.apply(full);
      text = full.out.join("").trim();
      if (text.length <= MAX_CACHED_TEXT) {
        if (this.#texts.size >= MAX_CACHED_TEXTS) this.#texts.clear();
        this.#texts.set(key, { decisions, text });
      }
    }
    return { text, args: ctx.arguments() };
  }
}

const MAX_CACHED_TEXTS = 256;
const MAX_CACHED_TEXT = 64 * 1024;

function hash(values: readonly number[]): number {
  let h = 0x811c9dc5 ^ values.length;
  for (let i = 0; i < values.length; i++) h = Math.imul(h ^ (values[i] as number), 0x01000193);
  return h;
}

function same(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Reads a mapper file from its text: the XML prolog and a DOCTYPE with dbVisitor's public id
 * (`-//dbvisitor.net//DTD Mapper 1.0//EN`) or MyBatis 3.0's are accepted and never fetched; the
 * root is `<mapper namespace>`. Every problem is an `XmlSyntaxError` (or subclass) naming the file,
 * line and column.
 *
 * @param text The file's text.
 * @param options The file name, for messages.
 * @returns The namespace, statements and result maps.
 *
 * @example
 * ```ts
 * import { parseMapperFile } from "@searchvisitor/searchvisitor/xml";
 * import assert from "node:assert/strict";
 *
 * const file = parseMapperFile(`<mapper namespace="users">
 *   <select id="byName">POST /users/_search {"query": {"term": {"name": #{name}}}}</select>
 *   <select id="search">POST /users/_search {"query": {"bool": {"filter": [<where>
 *     <if test="name != null">{"term": {"name": #{name}}},</if>
 *     <if test="ids != null">{"ids": {"values": <foreach collection="ids" item="id" open="[" separator="," close="]">#{id}</foreach>}},</if>
 *   </where>]}}}</select>
 * </mapper>`);
 * assert.equal(file.statements.get("byName")?.dynamic, false);
 * const r = file.statements.get("search")!.render({ ids: ["a", "b"] });
 * assert.equal(r.text.replace(/\s+/g, " "),
 *   'POST /users/_search {"query": {"bool": {"filter": [{"ids": {"values": [#{__frch_id_0},#{__frch_id_1}]}}]}}}');
 * assert.deepEqual(r.args, { ids: ["a", "b"], __frch_id_0: "a", __frch_id_1: "b" });
 * ```
 */
export function parseMapperFile(text: string, options: ParseMapperOptions = {}): MapperFile {
  const doc = (options.reader ?? readXml)(
    text,
    options.file === undefined ? {} : { file: options.file },
  );
  const root = doc.root;
  const file = doc.file;
  const base: StatementBuilder = new StatementBuilder(doc, "", new Map(), "");
  checkDoctype(doc, base);
  if (root.name !== "mapper") {
    base.fail(`the root element is <${root.name}>; a mapper file's root is <mapper>`, root);
  }
  const namespace = root.attributes.find((a) => a.name === "namespace")?.value.trim();
  if (!namespace) base.fail('<mapper> needs a namespace="…" attribute', root);
  for (const a of root.attributes) {
    if (
      !STATEMENT_ATTRIBUTES.mapper!.includes(a.name) && !a.name.startsWith("xmlns") &&
      !a.name.includes(":")
    ) {
      base.fail(`unknown attribute "${a.name}" on <mapper>`, a);
    }
  }

  const fragments = new Map<string, XmlElement>();
  const declared: XmlElement[] = [];
  const resultMaps = new Map<string, ResultMapDef>();
  const seen = new Map<string, number>();
  for (const child of root.children) {
    if (child.kind === "text") {
      if (child.cdata || child.text.trim()) {
        base.fail("text directly in <mapper>; put it inside a statement", child);
      }
      continue;
    }
    const id = child.attributes.find((a) => a.name === "id")?.value;
    if (child.name === "sql") {
      const b: StatementBuilder = new StatementBuilder(doc, namespace, fragments, id ?? "");
      b.attributes(child, ["id"], ["id"]);
      if (fragments.has(id as string)) {
        b.fail(`a second <sql id="${id}">; fragment ids are unique`, child);
      }
      fragments.set(id as string, child);
    } else if (child.name === "resultMap") {
      const map = readResultMap(child, new StatementBuilder(doc, namespace, fragments, id ?? ""));
      if (resultMaps.has(map.id)) base.fail(`a second <resultMap id="${map.id}">`, child);
      resultMaps.set(map.id, map);
    } else if (Object.hasOwn(STATEMENT_ATTRIBUTES, child.name) && child.name !== "mapper") {
      const b: StatementBuilder = new StatementBuilder(doc, namespace, fragments, id ?? "");
      if (!id || !/^[\w$-]+$/.test(id)) {
        b.fail(`<${child.name}> needs an id="…" of letters, digits, _ or -`, child);
      }
      const first = seen.get(id);
      if (first !== undefined) {
        b.fail(`a second statement with id "${id}" (the first is on line ${first})`, child);
      }
      seen.set(id, child.line);
      declared.push(child);
    } else {
      base.fail(
        `<${child.name}> is not supported in a mapper file; use select, insert, update, delete, execute, sql, resultMap`,
        child,
      );
    }
  }

  const statements = new Map<string, MapperStatement>();
  for (const el of declared) {
    const id = el.attributes.find((a) => a.name === "id")?.value as string;
    const b: StatementBuilder = new StatementBuilder(doc, namespace, fragments, id);
    const kind = el.name as StatementTag;
    b.attributes(el, STATEMENT_ATTRIBUTES[kind] ?? [], ["id"]);
    const attr = (name: string) => b.attribute(el, name, undefined);
    const resultType = attr("resultType");
    // `namespace.id` of this file is kept as the plain id, the key of `resultMaps`.
    const written = attr("resultMap");
    const own = written?.startsWith(namespace + ".")
      ? written.slice(namespace.length + 1)
      : written;
    const resultMap = own !== undefined && resultMaps.has(own) ? own : written;
    if (resultType !== undefined && resultMap !== undefined) {
      b.fail("resultType and resultMap are alternatives; give one", el);
    }
    if (resultMap !== undefined && !resultMaps.has(resultMap)) {
      if (!resultMap.includes(".") || resultMap.startsWith(namespace + ".")) {
        b.fail(`resultMap="${resultMap}" names no <resultMap> of this file`, el);
      }
    }
    const keys = attr("useGeneratedKeys");
    if (keys !== undefined && keys !== "true" && keys !== "false") {
      b.fail(`useGeneratedKeys="${keys}" must be true or false`, el);
    }
    const keyProperty = attr("keyProperty");
    const pieces = b.pieces(el, undefined, []);
    if (pieces.every((p) => typeof p === "string" && p.trim() === "")) {
      b.fail(
        `<${kind} id="${id}"> has no command text; write one, e.g. POST /index/_search {…}`,
        el,
      );
    }
    statements.set(
      id,
      new Statement({
        id,
        kind,
        line: el.line,
        ...(resultType !== undefined ? { resultType } : {}),
        ...(resultMap !== undefined ? { resultMap } : {}),
        ...(keys !== undefined ? { useGeneratedKeys: keys === "true" } : {}),
        ...(keyProperty !== undefined ? { keyProperty } : {}),
      }, pieces),
    );
  }
  // Fragments are checked even when no statement includes them, so their mistakes show at load.
  // (A fragment whose attributes use ${property} is checked where it is included.)
  for (const [id, el] of fragments) {
    if (!usesProperties(el)) {
      new StatementBuilder(doc, namespace, fragments, id).pieces(el, undefined, [id]);
    }
  }
  return { namespace, ...(file !== undefined ? { file } : {}), statements, resultMaps };
}

function usesProperties(el: XmlElement): boolean {
  return el.attributes.some((a) => a.value.includes("${")) ||
    el.children.some((c) => c.kind === "element" && usesProperties(c));
}
