// From XML elements to statement nodes: a table from tag name to handler (MyBatis' shape), the
// include expansion with `<property>` substitution, and placeholder splitting of text. Runs once
// per file; includes are expanded here so rendering never looks anything up.

import type { ConditionExpression } from "../driver/internal.ts";
import { MapperDefinitionError, type XmlPosition } from "./errors.ts";
import {
  BindNode,
  ChooseNode,
  ForEachNode,
  IfNode,
  MixedNode,
  type SqlNode,
  TrimNode,
  type TrimSpec,
} from "./_nodes.ts";
import { splitOverrides } from "./_overrides.ts";
import { textNode } from "./_placeholders.ts";
import { parseCondition } from "./condition.ts";
import {
  attributePosition,
  type XmlAttribute,
  type XmlDocument,
  type XmlElement,
} from "./xml_document.ts";

/** Built text or a dynamic node; adjacent texts are merged into one {@linkcode TextNode}. */
export type Piece = string | SqlNode;

type Props = ReadonlyMap<string, string> | undefined;
type Handler = (
  b: StatementBuilder,
  el: XmlElement,
  props: Props,
  chain: readonly string[],
) => Piece[];

/** The most nodes one file may expand to through includes (a bound against include bombs). */
export const MAX_NODES = 100_000;
/**
 * The deepest a statement may nest, tags and `<include>` chains together (the reader's default
 * element depth): deeper is a MapperDefinitionError, whatever reader built the tree, before any
 * recursion could exhaust the stack.
 */
export const MAX_STATEMENT_DEPTH = 256;
const NAME = /^[A-Za-z_$][\w$]*$/;
const RESERVED = new Set(["__proto__", "constructor", "prototype"]);

const one = (node: SqlNode): Piece[] => [node];
const COMMA = splitOverrides(",");
/** `<where>` and `<set>`: a JSON member list, its commas cleaned at both ends and inside. */
const MEMBER_LIST: TrimSpec = {
  prefixOverrides: COMMA,
  suffixOverrides: COMMA,
  dropCommas: true,
};

const HANDLERS: Record<string, Handler> = {
  if: (b, el, p, c) => {
    b.attributes(el, ["test"], ["test"]);
    return one(new IfNode(b.expression(el, "test", p), b.node(el, p, c)));
  },
  choose: (b, el, p, c) => {
    b.attributes(el, [], []);
    const whens: IfNode[] = [];
    let otherwise: SqlNode | undefined;
    for (const child of el.children) {
      if (child.kind === "text") {
        if (child.cdata || child.text.trim()) {
          b.fail("only <when> and <otherwise> may stand in <choose>", child);
        }
      } else if (child.name === "when" && otherwise === undefined) {
        b.attributes(child, ["test"], ["test"]);
        whens.push(new IfNode(b.expression(child, "test", p), b.node(child, p, c)));
      } else if (child.name === "otherwise" && otherwise === undefined) {
        b.attributes(child, [], []);
        otherwise = b.node(child, p, c);
      } else {
        b.fail(
          `<${child.name}> cannot stand here: <choose> holds <when>s, then at most one <otherwise>`,
          child,
        );
      }
    }
    return one(new ChooseNode(whens, otherwise));
  },
  trim: (b, el, p, c) => {
    const all = ["prefix", "suffix", "prefixOverrides", "suffixOverrides"];
    b.attributes(el, all, []);
    const [prefix, suffix, po, so] = all.map((n) => b.attribute(el, n, p));
    const [prefixes, suffixes] = [splitOverrides(po), splitOverrides(so)];
    // JSON-aware: asking to strip commas means the body is a member list, cleaned like <where>'s.
    const commas = [...prefixes, ...suffixes].some((o) => o.text === ",");
    return one(
      new TrimNode(b.node(el, p, c), {
        prefix: prefix ?? "",
        suffix: suffix ?? "",
        prefixOverrides: prefixes,
        suffixOverrides: suffixes,
        dropCommas: commas,
      }),
    );
  },
  where: (b, el, p, c) => {
    b.attributes(el, [], []);
    return one(new TrimNode(b.node(el, p, c), MEMBER_LIST));
  },
  set: (b, el, p, c) => {
    b.attributes(el, [], []);
    return one(new TrimNode(b.node(el, p, c), MEMBER_LIST));
  },
  foreach: (b, el, p, c) => {
    b.attributes(el, ["collection", "item", "index", "open", "close", "separator"], ["collection"]);
    const [item, index] = [b.variable(el, "item", p), b.variable(el, "index", p)];
    const collection = b.expression(el, "collection", p);
    const open = b.attribute(el, "open", p) ?? "";
    const close = b.attribute(el, "close", p) ?? "";
    const separator = b.attribute(el, "separator", p) ?? "";
    const contents = b.node(el, p, c);
    return one(
      new ForEachNode(collection, contents, {
        item,
        index,
        open,
        close,
        separator,
        where: b.where(el),
      }),
    );
  },
  bind: (b, el, p) => {
    b.attributes(el, ["name", "value"], ["name", "value"]);
    if (el.children.some((n) => n.kind === "element" || n.text.trim())) {
      b.fail("<bind> has no content", el);
    }
    return one(new BindNode(b.variable(el, "name", p) as string, b.expression(el, "value", p)));
  },
  include: (b, el, p, c) => b.include(el, p, c),
};

/** Builds the nodes of one statement or fragment. */
export class StatementBuilder {
  #nodes = 0;
  #depth = 0;

  constructor(
    readonly doc: XmlDocument,
    readonly namespace: string,
    readonly fragments: ReadonlyMap<string, XmlElement>,
    readonly statementId: string,
  ) {}

  /** Throws a {@linkcode MapperDefinitionError} at a node. */
  fail(problem: string, at: { line: number; column: number }): never {
    throw new MapperDefinitionError(problem, this.position(at), this.statementId || undefined);
  }

  /** A position in this file. */
  position(at: { line: number; column: number }): XmlPosition {
    return {
      line: at.line,
      column: at.column,
      text: this.doc.text,
      ...(this.doc.file !== undefined ? { file: this.doc.file } : {}),
    };
  }

  /** `statement "ns.id", file, line L, column C` — for render errors. */
  where(at: { line: number; column: number }): string {
    return `statement "${this.namespace}.${this.statementId}", ${
      this.doc.file ?? "mapper text"
    }, line ${at.line}, column ${at.column}`;
  }

  /** Checks an element's attributes: only `allowed`, and every one of `required`. */
  attributes(el: XmlElement, allowed: readonly string[], required: readonly string[]): void {
    for (const a of el.attributes) {
      if (!allowed.includes(a.name)) {
        const hint = allowed.length
          ? `; <${el.name}> takes ${allowed.join(", ")}`
          : `; <${el.name}> takes none`;
        this.fail(`unknown attribute "${a.name}"${hint}`, a);
      }
    }
    for (const name of required) {
      if (!el.attributes.some((a) => a.name === name)) {
        this.fail(`<${el.name}> needs the attribute "${name}"`, el);
      }
    }
  }

  /** An attribute's value with `${property}` substituted inside an included fragment. */
  attribute(el: XmlElement, name: string, props: Props): string | undefined {
    const a = el.attributes.find((x) => x.name === name);
    return a === undefined ? undefined : substitute(a.value, props);
  }

  /** A variable name attribute (`item`, `index`, `name`): an identifier, not reserved. */
  variable(el: XmlElement, name: string, props: Props): string | undefined {
    const value = this.attribute(el, name, props);
    if (value === undefined) return undefined;
    if (
      !NAME.test(value) || RESERVED.has(value) || value.startsWith("__frch_") ||
      value.startsWith("__bind_")
    ) {
      this.fail(
        `${name}="${value}" must be a plain name (letters, digits, _; not __proto__ or __frch_…)`,
        el,
      );
    }
    return value;
  }

  /** Parses an attribute as an expression, with errors pointing inside the attribute. */
  expression(el: XmlElement, name: string, props: Props): ConditionExpression {
    const a = el.attributes.find((x) => x.name === name) as XmlAttribute;
    const source = substitute(a.value, props);
    return parseCondition(source, {
      position: (offset) => this.position(source === a.value ? attributePosition(a, offset) : a),
      where: this.where(a),
    });
  }

  /** The children of `el` as one node. */
  node(el: XmlElement, props: Props, chain: readonly string[]): SqlNode {
    return toNode(this.pieces(el, props, chain));
  }

  /** The children of `el` as pieces (texts and dynamic nodes). */
  pieces(el: XmlElement, props: Props, chain: readonly string[]): Piece[] {
    if (this.#depth >= MAX_STATEMENT_DEPTH) {
      this.fail(
        `the statement nests deeper than ${MAX_STATEMENT_DEPTH} levels (tags and <include>s ` +
          `together); flatten it`,
        el,
      );
    }
    this.#depth++;
    const out = this.#children(el, props, chain);
    this.#depth--;
    return out;
  }

  #children(el: XmlElement, props: Props, chain: readonly string[]): Piece[] {
    const out: Piece[] = [];
    for (const child of el.children) {
      if (++this.#nodes > MAX_NODES) {
        this.fail(
          `the statement expands to more than ${MAX_NODES} nodes; check its <include>s`,
          child,
        );
      }
      if (child.kind === "text") out.push(substitute(child.text, props));
      else {
        const handler = Object.hasOwn(HANDLERS, child.name) ? HANDLERS[child.name] : undefined;
        if (!handler) {
          const where = child.name === "when" || child.name === "otherwise"
            ? " outside <choose>"
            : "";
          this.fail(
            `unknown tag <${child.name}>${where}; a statement holds text and <if>, <choose>, <trim>, <where>, <set>, <foreach>, <bind>, <include>`,
            child,
          );
        }
        out.push(...handler(this, child, props, chain));
      }
    }
    return out;
  }

  /** `<include refid>`: the fragment's pieces with its `<property>` values substituted. */
  include(el: XmlElement, props: Props, chain: readonly string[]): Piece[] {
    this.attributes(el, ["refid"], ["refid"]);
    const raw = this.attribute(el, "refid", props) as string;
    const refid = raw.startsWith(this.namespace + ".") ? raw.slice(this.namespace.length + 1) : raw;
    const fragment = this.fragments.get(refid);
    if (!fragment) {
      this.fail(
        `<include refid="${raw}">: no <sql id="${refid}"> in namespace "${this.namespace}"`,
        el,
      );
    }
    if (chain.includes(refid)) {
      this.fail(
        `<include> cycle: ${[...chain, refid].join(" → ")}; a fragment cannot include itself`,
        el,
      );
    }
    const own = new Map(props ?? []);
    for (const child of el.children) {
      if (child.kind === "text") {
        if (child.cdata || child.text.trim()) {
          this.fail("<include> holds only <property> elements", child);
        }
        continue;
      }
      if (child.name !== "property") {
        this.fail(`<${child.name}> in <include>; use <property name value>`, child);
      }
      this.attributes(child, ["name", "value"], ["name", "value"]);
      own.set(
        this.attribute(child, "name", props) as string,
        this.attribute(child, "value", props) as string,
      );
    }
    return this.pieces(fragment, own.size ? own : undefined, [...chain, refid]);
  }
}

/** Replaces `${name}` with the property's value where the property exists; others stay. */
function substitute(text: string, props: Props): string {
  if (props === undefined || !text.includes("${")) return text;
  return text.replace(
    /\$\{\s*([A-Za-z_$][\w$.-]*)\s*\}/g,
    (m, name: string) => props.get(name) ?? m,
  );
}

/** Merges adjacent texts and makes one node of the pieces. */
export function toNode(pieces: readonly Piece[]): SqlNode {
  const nodes: SqlNode[] = [];
  let text: string[] = [];
  const flush = () => {
    if (text.length) nodes.push(textNode(text.join("")));
    text = [];
  };
  for (const piece of pieces) {
    if (typeof piece === "string") text.push(piece);
    else {
      flush();
      nodes.push(piece);
    }
  }
  flush();
  return nodes.length === 1 ? nodes[0] as SqlNode : new MixedNode(nodes);
}
