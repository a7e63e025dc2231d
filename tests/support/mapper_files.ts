// A hand-built MapperFile (the shape the xml room's parseMapperFile gives), for tests of the
// mapper's side of the seam without the XML reader.
import type { MapperFile, MapperStatement, ResultMapDef } from "../../mapper/mod.ts";

/** One static statement: its text renders as written. */
export interface StaticStatement {
  kind: MapperStatement["kind"];
  text: string;
  resultType?: string;
  resultMap?: string;
  useGeneratedKeys?: boolean;
  keyProperty?: string;
}

/** Builds a MapperFile of static statements and result maps. */
export function staticMapperFile(
  namespace: string,
  statements: Record<string, StaticStatement>,
  resultMaps: ResultMapDef[] = [],
  file?: string,
): MapperFile {
  const map = new Map<string, MapperStatement>();
  let line = 2;
  for (const [id, s] of Object.entries(statements)) {
    map.set(id, {
      id,
      ...s,
      dynamic: false,
      line: line++,
      render: (args) => ({ text: s.text, args }),
    });
  }
  return {
    namespace,
    ...(file ? { file } : {}),
    statements: map,
    resultMaps: new Map(resultMaps.map((r) => [r.id, r])),
  };
}
