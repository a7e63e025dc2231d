// A lenient, position-keeping reader of console command text for the checker: it splits a text
// into commands (method, target, body values) and reads each body into a tree whose every node
// knows its offset, so a diagnostic can point at the exact token. It reads the driver's lexer's
// tokens (ConsoleLexer), so strings, comments and placeholders end where the driver and the
// template say they do. It accepts what the driver and
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

import {
  ConsoleLexer,
  LBRACE,
  RBRACE,
  splitTopLevel,
  targetStart,
  type TokenKind,
} from "../driver/internal.ts";

class Stop extends Error {}

/** The `#{…}` name (or a rule's name) of a placeholder token `[at, end)`: up to its first comma. */
function markerName(text: string, at: number, end: number): string {
  return text.slice(at + 2, end - 1).split(",")[0]!.trim();
}

/** Reads a whole text into commands. */
export function readCommands(text: string): RawCommand[] {
  const out: RawCommand[] = [];
  const n = text.length;
  const lexer = new ConsoleLexer(text);

  // Spaces, comments, hints and `;` between commands and bodies.
  const skipTrivia = (): void => {
    for (;;) {
      const at = lexer.pos;
      if (!lexer.next("body")) return;
      const kind: TokenKind = lexer.kind;
      if (kind !== "space" && kind !== "comment" && kind !== "hint" && kind !== "semi") {
        lexer.pos = at;
        return;
      }
    }
  };
  const methodAt = (): string | undefined => {
    const at = lexer.pos;
    if (!lexer.next("body") || !lexer.isMethod()) {
      lexer.pos = at;
      return undefined;
    }
    return lexer.token().toUpperCase();
  };
  const nextLine = (): void => {
    const nl = text.indexOf("\n", lexer.pos);
    lexer.pos = nl < 0 ? n : nl + 1;
  };

  for (;;) {
    skipTrivia();
    if (lexer.pos >= n) break;
    const start = lexer.pos;
    const method = methodAt();
    if (!method) {
      nextLine(); // not a command start: skip the line (the driver reports it)
      continue;
    }
    const targetAt = targetStart(text, lexer.pos);
    const targetNames: { name: string; at: number; end: number }[] = [];
    if (targetAt >= 0) {
      lexer.pos = targetAt;
      while (lexer.next("target")) {
        const kind: TokenKind = lexer.kind;
        if (kind === "space" || kind === "semi") {
          lexer.pos = lexer.start;
          break;
        }
        if (kind === "named") {
          targetNames.push({
            name: markerName(text, lexer.start, lexer.pos),
            at: lexer.start,
            end: lexer.pos,
          });
        }
      }
    }
    const target = targetAt < 0 ? "" : text.slice(targetAt, lexer.pos);
    const body: JNode[] = [];
    let unreadable = false;
    for (;;) {
      skipTrivia();
      const at = lexer.pos;
      if (at >= n || methodAt()) {
        lexer.pos = at;
        break;
      }
      try {
        const reader = new BodyReader(text, at, n);
        body.push(reader.value());
        lexer.pos = reader.lexer.pos;
      } catch (e) {
        if (!(e instanceof Stop)) throw e;
        unreadable = true;
        // Skip to the next line starting with a method.
        for (;;) {
          nextLine();
          const line = lexer.pos;
          if (line >= n || methodAt()) {
            lexer.pos = line;
            break;
          }
        }
        break;
      }
    }
    out.push({
      method,
      methodAt: start,
      target,
      targetAt: targetAt < 0 ? start + method.length : targetAt,
      body,
      targetNames,
      unreadable,
    });
  }
  return out;
}

const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/** Reads JSON values (with placeholders) from the lexer's tokens in `[at, end)`. */
class BodyReader {
  readonly lexer: ConsoleLexer;
  constructor(readonly text: string, at: number, readonly end: number) {
    this.lexer = new ConsoleLexer(text, at, end);
  }

  /** Reads the next token that is not a space or a comment; false at the end of the range. */
  token(): boolean {
    const lexer = this.lexer;
    while (lexer.next("body")) {
      const kind: TokenKind = lexer.kind;
      if (kind !== "space" && kind !== "comment" && kind !== "hint") return true;
      if (!lexer.closed) throw new Stop();
    }
    return false;
  }

  /** Like {@linkcode BodyReader.token}, but leaves the token to be read again. */
  peek(): TokenKind | undefined {
    const lexer = this.lexer;
    if (!this.token()) return undefined;
    lexer.pos = lexer.start;
    return lexer.kind;
  }

  /** A reader of the fragment of the rule call just read, or undefined for a rule without one. */
  fragment(): BodyReader | undefined {
    const { start, pos } = this.lexer;
    const from = fragmentStart(this.text, start, pos);
    return from < 0 ? undefined : new BodyReader(this.text, from, pos - 1);
  }

  value(): JNode {
    if (!this.token()) throw new Stop();
    const lexer = this.lexer;
    const t = this.text;
    const at = lexer.start;
    const end = lexer.pos;
    const kind: TokenKind = lexer.kind;
    if (kind === "open") return lexer.code() === LBRACE ? this.object(at) : this.array(at);
    if (kind !== "word" && kind !== "slot" && !lexer.closed) throw new Stop();
    if (kind === "string" || kind === "triple") {
      const raw = t.slice(at, end);
      let value: string;
      try {
        value = kind === "triple" ? raw.slice(3, -3) : JSON.parse(raw);
      } catch {
        value = raw.slice(1, -1);
      }
      return { kind: "string", at, end, value };
    }
    if (kind === "slot") return { kind: "slot", at, end };
    if (kind === "rule") {
      // A rule's fragment stands for the value; other rules for a value we cannot know.
      const inner = this.fragment();
      if (!inner) return { kind: "slot", at, end, rule: true };
      const value = inner.value();
      if (inner.token()) throw new Stop();
      return value;
    }
    if (kind === "named") return { kind: "slot", at, end, named: markerName(t, at, end) };
    if (kind === "splice") return { kind: "slot", at, end, splice: true };
    if (kind !== "word") throw new Stop();
    const w = t.slice(at, end);
    if (w === "true" || w === "false") return { kind: "boolean", at, end, value: w === "true" };
    if (w === "null") return { kind: "null", at, end, value: null };
    if (!NUMBER.test(w)) throw new Stop();
    return { kind: "number", at, end, value: Number(w) };
  }

  object(at: number): JNode {
    const node: JNode = { kind: "object", at, end: at, members: [] };
    this.members(node, "brace");
    node.end = this.lexer.pos;
    return node;
  }

  /**
   * Reads members into `node` up to its `}` (`"brace"`) or, in a rule's fragment, to the range's
   * end (`"end"`).
   */
  members(node: JNode, until: "brace" | "end"): void {
    const closed = until === "brace";
    const members = node.members!;
    const lexer = this.lexer;
    const t = this.text;
    for (;;) {
      if (!this.token()) {
        if (closed) throw new Stop();
        break;
      }
      const kind: TokenKind = lexer.kind;
      if (kind === "close" && closed && lexer.code() === RBRACE) break;
      if (kind === "comma") continue;
      const keyAt = lexer.start;
      let key = "";
      let keySlot = false;
      if (kind === "string" || kind === "triple") {
        if (!lexer.closed) throw new Stop();
        try {
          key = JSON.parse(lexer.token());
        } catch {
          key = t.slice(keyAt + 1, lexer.pos - 1);
        }
      } else if (kind === "slot") keySlot = true;
      else if (kind === "named" || kind === "splice" || kind === "rule") {
        if (!lexer.closed) throw new Stop();
        if (kind === "rule") {
          node.dynamic = true;
          this.fragment()?.members(node, "end");
          continue;
        }
        keySlot = true;
        if (kind === "splice") node.dynamic = true;
      } else throw new Stop();
      const keyEnd = lexer.pos;
      if (this.peek() !== "colon") {
        // `${splice}` standing for whole members.
        if (keySlot) {
          node.dynamic = true;
          continue;
        }
        throw new Stop();
      }
      this.token();
      const value = this.value();
      members.push({ key, keyAt, keyEnd, keySlot, value });
    }
  }

  array(at: number): JNode {
    const items: JNode[] = [];
    const node: JNode = { kind: "array", at, end: at, items };
    const lexer = this.lexer;
    for (;;) {
      const kind = this.peek();
      if (kind === undefined) throw new Stop();
      if (kind === "close" || kind === "comma") {
        this.token();
        if (kind === "close") break;
        continue;
      }
      if (kind === "rule") {
        this.token();
        node.dynamic = true;
        if (!lexer.closed) throw new Stop();
        const inner = this.fragment();
        if (inner) {
          for (;;) {
            const k = inner.peek();
            if (k === undefined) break;
            if (k === "comma") inner.token();
            else items.push(inner.value());
          }
        }
        continue;
      }
      items.push(this.value());
    }
    node.end = lexer.pos;
    return node;
  }
}

/** The rules whose last part is a fragment of the body (`@{and, f}`, `@{if, test, f}`). */
const FRAGMENT_PARTS: Record<string, number> = { and: 1, if: 2 };

/**
 * Where the fragment of the rule call `[at, end)` starts (after its name and tests), or -1 for a
 * rule without one. The parts are cut as the template cuts them (the lexer's top-level commas);
 * the fragment is read in place, so its placeholders and content are checked like the body's.
 */
function fragmentStart(t: string, at: number, end: number): number {
  const parts = FRAGMENT_PARTS[markerName(t, at, end).toLowerCase()];
  if (parts === undefined) return -1;
  const cut = splitTopLevel(t, at + 2, end - 1, parts + 1);
  return cut.length < parts + 1 ? -1 : cut[parts]![0];
}
