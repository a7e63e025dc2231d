// The contract between the command language (tokenizer + binder) and the driver objects.
// Internal: other rooms reach these types only through driver/mod.ts.

/** The HTTP methods a command may use. */
export type Method = "GET" | "POST" | "PUT" | "DELETE" | "HEAD";

/** A hint value after binding. */
export type HintValue = string | number | boolean | null;

/**
 * One command after binding: ready for the transport. `path` starts with `/` and includes the
 * query string (already percent-encoded). `body` is JSON text, or NDJSON text ending with `\n`
 * when `ndjson` is true. The method is the one the user wrote (the transport turns GET/HEAD with
 * a body into POST).
 */
export interface BoundCommand {
  /** The method as written, upper-cased. */
  readonly method: Method;
  /** The path with its query string, starting with `/`, values percent-encoded. */
  readonly path: string;
  /**
   * The path as the command wrote it, `{?}` where values were bound: the transport decides
   * whether a request may be re-sent from it, so no bound value changes how it is retried.
   * Absent on commands built by hand (the bound `path` is read then).
   */
  readonly pathTemplate?: string;
  /** The JSON body, or NDJSON lines ending with a newline; `undefined` without a body. */
  readonly body: string | undefined;
  /** Whether the body is NDJSON (`_bulk`, `_msearch`). */
  readonly ndjson: boolean;
  /** Hints given before the command, names lower-cased, values bound. */
  readonly hints: Readonly<Record<string, HintValue>>;
  /** The source text of this command (for error messages; redact before showing). */
  readonly text: string;
  /** 1-based line where the command starts in the whole text. */
  readonly line: number;
}
