// The shapes a read mapper file has: what the mapper layer consumes.

/** The statement tags of a mapper file (`<select>`, `<insert>`, …): their element names. */
export type StatementTag = "select" | "insert" | "update" | "delete" | "execute";

/**
 * A rendered statement: template text (`#{}` named arguments, `${}` splices, `@{}` rules) for the
 * template layer to bind, and the arguments to bind it with — the caller's plus those that
 * `<bind>` and `<foreach>` added (loop items under generated names such as `__frch_item_0`).
 */
export interface RenderedStatement {
  /** The template text. */
  readonly text: string;
  /** The arguments for the text's placeholders. */
  readonly args: Record<string, unknown>;
}

/** A `<resultMap>`: which column fills which property; `id` marks the `<id>` mappings. */
export interface ResultMapDef {
  /** The result map's id. */
  readonly id: string;
  /** The `type` attribute, when given (an entity or class name, resolved by the mapper layer). */
  readonly type?: string;
  /** The mappings in file order. */
  readonly columns: readonly { column: string; property: string; id: boolean }[];
}

/** One statement of a mapper file. */
export interface MapperStatement {
  /** The statement's id (without the namespace). */
  readonly id: string;
  /** The element it was declared with. */
  readonly kind: StatementTag;
  /** `resultType` of a `<select>`. */
  readonly resultType?: string;
  /** `resultMap` of a `<select>`: the id of a `<resultMap>` of this file (its own namespace prefix
   * dropped), or another file's `namespace.id`. */
  readonly resultMap?: string;
  /** `useGeneratedKeys` of an `<insert>`. */
  readonly useGeneratedKeys?: boolean;
  /** `keyProperty` of an `<insert>`. */
  readonly keyProperty?: string;
  /** True when the statement has dynamic tags; false when its text is fixed at load. */
  readonly dynamic: boolean;
  /** 1-based line of the statement's element. */
  readonly line: number;
  /**
   * Renders the statement for these arguments: a static statement returns its cached text.
   *
   * @param args The named arguments.
   * @returns The template text and its arguments.
   */
  render(args: Record<string, unknown>): RenderedStatement;
}

/** A read mapper file. */
export interface MapperFile {
  /** The `namespace` of `<mapper>`. */
  readonly namespace: string;
  /** The file name or URL it was read from, when known. */
  readonly file?: string;
  /** The statements by id. */
  readonly statements: ReadonlyMap<string, MapperStatement>;
  /** The result maps by id. */
  readonly resultMaps: ReadonlyMap<string, ResultMapDef>;
}
