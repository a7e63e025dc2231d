// The mapper-file interface the xml room provides (parseMapperFile / loadMapperFile give a
// MapperFile). Kept as types only, so configurations accept any object of this shape.

/** A statement of a mapper file. */
export interface MapperStatement {
  readonly id: string;
  readonly kind: "select" | "insert" | "update" | "delete" | "execute";
  readonly resultType?: string;
  readonly resultMap?: string;
  readonly useGeneratedKeys?: boolean;
  readonly keyProperty?: string;
  readonly dynamic: boolean;
  readonly line: number;
  render(args: Record<string, unknown>): RenderedStatement;
}

/** Template text and arguments, ready for named binding. */
export interface RenderedStatement {
  readonly text: string;
  readonly args: Record<string, unknown>;
}

/** A `<resultMap>`: document fields to properties. */
export interface ResultMapDef {
  readonly id: string;
  readonly type?: string;
  readonly columns: readonly { column: string; property: string; id: boolean }[];
}

/** A parsed mapper file. */
export interface MapperFile {
  readonly namespace: string;
  readonly file?: string;
  readonly statements: ReadonlyMap<string, MapperStatement>;
  readonly resultMaps: ReadonlyMap<string, ResultMapDef>;
}
