// The state of one render: the output pieces, the caller's arguments, the variables that tags add
// (`<bind>`, `<foreach>` items) and the generated names placeholders are renamed to. Variables
// live on a small stack (innermost last), so entering and leaving a loop allocates nothing.

import { ConditionExpression, type VariableLookup } from "../driver/internal.ts";

/** A variable a tag made visible: its value and, in a loop, the generated argument name. */
export interface Binding {
  /** The name tests and placeholders use. */
  readonly name: string;
  /** The current value. */
  value: unknown;
  /** The generated argument name placeholders are renamed to, when renamed. */
  renamed: string | undefined;
}

const NO_TEXT: string[] = [];
const GENERATED = new Map<string, string[]>();
const MAX_PREFIXES = 256;
const MAX_KEPT_NAMES = 1024;

/** One render's state; a node appends text to `out`. */
export class RenderContext {
  /** The rendered pieces, in order (empty while only deciding). */
  out: string[] = NO_TEXT;
  /** The caller's arguments. */
  readonly args: Readonly<Record<string, unknown>>;
  /** Names of the arguments the render added (bind values, foreach items), in order. */
  readonly addedNames: string[] = [];
  /** Values of the added arguments, parallel to `addedNames`. */
  readonly addedValues: unknown[] = [];
  /** Variables visible to expressions and placeholders, innermost last. */
  readonly scope: Binding[] = [];
  /** How many foreach loops enclose the node being rendered. */
  loopDepth = 0;
  /** The choices a `decide` walk made (tests taken, branches, loop steps), in walk order. */
  readonly decisions: number[] = [];
  /** Generated names made so far (each one is unique in the render). */
  generated = 0;
  /** Reads a variable: the innermost binding first, then the caller's argument. */
  readonly lookup: VariableLookup;

  constructor(args: Readonly<Record<string, unknown>>, writing = false) {
    this.args = args;
    if (writing) this.out = [];
    const scope = this.scope;
    this.lookup = (name) => {
      for (let i = scope.length - 1; i >= 0; i--) {
        const b = scope[i] as Binding;
        if (b.name === name) return b.value;
      }
      return ConditionExpression.member(args, name);
    };
  }

  /** The generated name placeholders use for `name`, or `undefined` when it is not renamed. */
  renamed(name: string): string | undefined {
    const scope = this.scope;
    for (let i = scope.length - 1; i >= 0; i--) {
      const b = scope[i] as Binding;
      if (b.name === name) return b.renamed;
    }
    return undefined;
  }

  /**
   * The generated name `prefix` + the next number. Names are kept (up to a bound) so every render
   * uses the same string objects, which makes building the arguments object much cheaper.
   */
  generate(prefix: string): string {
    const n = this.generated++;
    let names = GENERATED.get(prefix);
    if (names === undefined) {
      if (GENERATED.size >= MAX_PREFIXES) GENERATED.clear();
      GENERATED.set(prefix, names = []);
    }
    return names[n] ?? (n < MAX_KEPT_NAMES ? (names[n] = prefix + n) : prefix + n);
  }

  /** Adds an argument for the template layer to bind. */
  addArgument(name: string, value: unknown): void {
    this.addedNames.push(name);
    this.addedValues.push(value);
  }

  /** The caller's arguments plus the added ones (the caller's object itself when none). */
  arguments(): Record<string, unknown> {
    const names = this.addedNames;
    if (names.length === 0) return this.args as Record<string, unknown>;
    const all: Record<string, unknown> = Object.assign({}, this.args);
    const values = this.addedValues;
    for (let i = 0; i < names.length; i++) all[names[i] as string] = values[i];
    return all;
  }
}
