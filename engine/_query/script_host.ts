// Objects a host hands to scripts (doc values, vector functions' fields, `Math`): scripts read
// their members and call their methods through these two hooks and nothing else.

/**
 * A value scripts can read members of and call methods on. Implementations answer only the names
 * they know and throw a script error (with `source`) for anything else.
 */
export abstract class ScriptHost {
  /** `obj.key` / `obj[key]`. */
  abstract member(source: string, key: string | number): unknown;
  /** `obj.method(args)`. */
  abstract invoke(source: string, method: string, args: unknown[]): unknown;
}

/** Carries a `return` value out of nested statements. */
export class ScriptReturn {
  constructor(readonly value: unknown) {}
}
