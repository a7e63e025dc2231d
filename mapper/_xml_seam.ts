// The mapper-file interface the xml room provides (parseMapperFile / loadMapperFile give a
// MapperFile). Kept as types only, so configurations accept any object of this shape.

/** A statement of a mapper file. */
export interface MapperStatement {
  /** The id (unique in its namespace). */
  readonly id: string;
  /** The element it came from. */
  readonly kind: "select" | "insert" | "update" | "delete" | "execute";
  /** The registered result type name, when given. */
  readonly resultType?: string;
  /** The id of a `<resultMap>` of the same file, when given. */
  readonly resultMap?: string;
  /** Read the generated `_id`s of an insert. */
  readonly useGeneratedKeys?: boolean;
  /** Where generated `_id`s go in the arguments. */
  readonly keyProperty?: string;
  /** True when the text depends on the arguments (dynamic tags). */
  readonly dynamic: boolean;
  /** The line of the element in its file. */
  readonly line: number;
  /** Renders template text for these arguments. */
  render(args: Record<string, unknown>): RenderedStatement;
}

/** Template text and arguments, ready for named binding. */
export interface RenderedStatement {
  /** Template text (`#{}` named arguments, `@{}` rules). */
  readonly text: string;
  /** The caller's arguments plus variables the tags made. */
  readonly args: Record<string, unknown>;
}

/** A `<resultMap>`: document fields to properties. */
export interface ResultMapDef {
  /** The id. */
  readonly id: string;
  /** The registered type name, when given. */
  readonly type?: string;
  /** Document field → property; `id` marks the one that takes `_ID`. */
  readonly columns: readonly { column: string; property: string; id: boolean }[];
}

/** A parsed mapper file. */
export interface MapperFile {
  /** The namespace: statement ids are `namespace.id`. */
  readonly namespace: string;
  /** The file name or URL it came from, when known. */
  readonly file?: string;
  /** The statements by id. */
  readonly statements: ReadonlyMap<string, MapperStatement>;
  /** The result maps by id. */
  readonly resultMaps: ReadonlyMap<string, ResultMapDef>;
}
