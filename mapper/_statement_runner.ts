// Runs one compiled statement: render → bind → (page / version members) → execute → shape the
// result as declared. Every error leaves with the mapper, method and statement id in front.

import type { LiveCheck } from "./check_statements.ts";
import {
  type Connection,
  type DataSource,
  IncorrectResultSizeError,
  type ResultSet,
} from "../driver/mod.ts";
import {
  type BoundTemplate,
  type EntityClass,
  getEntityMeta,
  isEntityClass,
  type JdbcTemplate,
  type Page,
  PageResult,
  type RowMap,
} from "../template/mod.ts";
import { withMeta } from "../template/internal.ts";
import { mapResultSet } from "../template/internal.ts";
import { inStatement, MapperError, type StatementSite } from "./errors.ts";
import { addToSearch } from "./_search_body.ts";
import type { Returns, StatementKind } from "./statement_options.ts";

/** A statement ready to run. */
export interface CompiledStatement {
  readonly id: string;
  readonly site: StatementSite;
  readonly kind: StatementKind;
  readonly returns: Returns;
  /** Rows become these entities; otherwise `mapRow` or row maps. */
  readonly entity?: EntityClass;
  /** A custom row mapping (mapper-file result maps). */
  readonly mapRows?: (rs: ResultSet) => unknown[];
  readonly params?: readonly string[];
  /** Where the statement was declared: a mapper file's statement names its params elsewhere. */
  readonly fromFile?: boolean;
  readonly useGeneratedKeys: boolean;
  readonly keyProperty?: string;
  render(args: Record<string, unknown>): { text: string; args: Record<string, unknown> };
}

/** What a mapper's statements run on: its session's template and source. */
export interface RunContext {
  readonly jdbc: JdbcTemplate;
  readonly source: DataSource | Connection;
  /** The configuration's check on first use, when it checks statements. */
  readonly check?: LiveCheck;
}

const READS: ReadonlySet<Returns> = new Set(["list", "one", "page", "value"]);

/** Whether a value is a Page (a PageObject or anything with its methods). */
export function isPage(value: unknown): value is Page {
  if (value === null || typeof value !== "object") return false;
  const page = value as Record<string, unknown>;
  return typeof page.getPageSize === "function" &&
    typeof page.getFirstRecordPosition === "function" &&
    typeof page.setTotalCount === "function";
}

/** How to name a statement's positional parameters, where it was declared. */
function nameThem(st: CompiledStatement, example: string): string {
  const method = st.site.method ?? "method";
  return st.fromFile
    ? `name them in the mapper class: @RefMapper(file, { params: { ${method}: [${example}] } }) (or defineMapper's params)`
    : `name them: params: [${example}]`;
}

/** Turns a method's arguments into named arguments and a page. */
export function collectArgs(
  st: CompiledStatement,
  values: readonly unknown[],
): { named: Record<string, unknown>; page?: Page } {
  let page = values.find(isPage);
  if (st.params) {
    const rest = values.filter((v) => !isPage(v));
    // A Page stands anywhere (dbVisitor passes it last); unnamed, the names go to the others.
    const positional = values.length <= st.params.length ? values : rest;
    if (positional.length > st.params.length) {
      throw new MapperError(
        `got ${values.length} arguments, but params names ${st.params.length} (${
          st.params.join(", ")
        }); name every parameter in params`,
        st.site,
      );
    }
    const named: Record<string, unknown> = {};
    st.params.forEach((name, i) => (named[name] = positional[i]));
    return { named, page };
  }
  const rest = values.filter((v) => !isPage(v));
  if (rest.length > 1) {
    throw new MapperError(
      `got ${rest.length} arguments besides a Page, but without params only one object of named arguments is read; ${
        nameThem(st, '"a", "b", …')
      }`,
      st.site,
    );
  }
  const first = rest[0];
  if (first === undefined || first === null) return { named: {}, page };
  if (typeof first !== "object" || Array.isArray(first)) {
    throw new MapperError(
      `the argument ${JSON.stringify(first)} is not an object of named arguments; ${
        nameThem(st, '"name"')
      }`,
      st.site,
    );
  }
  const named = first as Record<string, unknown>;
  page ??= Object.values(named).find(isPage);
  return { named, page };
}

/** Runs a statement with named arguments and an optional page. */
export async function runStatement(
  exec: RunContext,
  st: CompiledStatement,
  named: Record<string, unknown>,
  page?: Page,
): Promise<unknown> {
  try {
    if (st.returns === "page" && page === undefined) {
      throw new MapperError(
        'returns "page" needs a Page argument (a PageObject), none was given',
        st.site,
      );
    }
    const rendered = st.render(named);
    let bound = exec.jdbc.bind(rendered.text, rendered.args);
    if (exec.check) await exec.check.before(st, bound, exec);
    const read = READS.has(st.returns) ||
      (st.kind === "query" && (st.returns === "number" || st.returns === "boolean"));
    if (read) {
      const version = st.entity
        ? getEntityMeta(st.entity).fields.find((f) => f.version)?.version
        : undefined;
      bound = addToSearch(bound, {
        page,
        seqNoPrimaryTerm: version === "seq_no",
        version: version === "external",
      }, st.site);
      return await exec.jdbc.query(bound, undefined, {
        extractor: (rs) => shape(st, rs, bound, page),
      });
    }
    if (page !== undefined) {
      throw new MapperError(
        `a Page was given, but the statement is a ${st.kind} that returns "${st.returns}"; page only reads`,
        st.site,
      );
    }
    if (st.returns === "results") return await exec.jdbc.multipleExecute(bound);
    if (st.returns === "void") {
      await exec.jdbc.execute(bound);
      return undefined;
    }
    const count = st.useGeneratedKeys
      ? await writeWithKeys(exec, bound, named, st)
      : await exec.jdbc.executeUpdate(bound);
    return st.returns === "boolean" ? count > 0 : count;
  } catch (error) {
    throw inStatement(error, st.site);
  }
}

function rowsOf(st: CompiledStatement, rs: ResultSet, command: string): unknown[] {
  if (st.entity) return mapResultSet(rs, st.entity, command);
  if (st.mapRows) return st.mapRows(rs);
  return rs.toArray() as RowMap[];
}

function shape(st: CompiledStatement, rs: ResultSet, bound: BoundTemplate, page?: Page): unknown {
  if (page !== undefined) page.setTotalCount(rs.total?.value ?? rs.rowCount);
  switch (st.returns) {
    case "one": {
      if (rs.rowCount > 1) {
        throw new IncorrectResultSizeError(1, rs.rowCount, { command: bound.text });
      }
      return rowsOf(st, rs, bound.text)[0] ?? null;
    }
    case "page":
      return PageResult.of(page!, rowsOf(st, rs, bound.text));
    case "value":
      return singleValue(st, rs, bound);
    case "number": {
      const value = singleValue(st, rs, bound);
      return value === null ? null : Number(value);
    }
    case "boolean": {
      const columns = rs.getColumns();
      if (columns.length === 1 && columns[0] === "STATUS" && rs.next()) {
        const status = Number(rs.getObject(1));
        return status >= 200 && status < 300;
      }
      return rs.rowCount > 0;
    }
    default: {
      // Like JdbcTemplate's lists: a plain array, its total, took and aggregations by listMeta.
      return withMeta(rowsOf(st, rs, bound.text), rs);
    }
  }
}

function singleValue(st: CompiledStatement, rs: ResultSet, bound: BoundTemplate): unknown {
  if (rs.rowCount > 1) throw new IncorrectResultSizeError(1, rs.rowCount, { command: bound.text });
  if (!rs.next()) return null;
  const columns = rs.getColumns();
  if (columns.includes("COUNT")) return rs.getObject("COUNT");
  if (columns.length === 1) return rs.getObject(1);
  throw new MapperError(
    `returns "${st.returns}" needs a single column, but the rows have ${
      columns.join(", ")
    }; use returns "one" or "list"`,
    st.site,
  );
}

async function writeWithKeys(
  exec: RunContext,
  bound: BoundTemplate,
  named: Record<string, unknown>,
  st: CompiledStatement,
): Promise<number> {
  const { count, keys } = await exec.jdbc.executeUpdateWithKeys(bound);
  if (st.keyProperty) assignKeys(named, st.keyProperty.split("."), keys, st);
  else {
    // The argument object is itself an entity: its key field takes the generated key.
    const type = named.constructor as EntityClass;
    const key = isEntityClass(type) ? getEntityMeta(type).key : undefined;
    const empty = key !== undefined && (named[key] === undefined || named[key] === "");
    if (empty && keys[0] !== undefined) named[key] = keys[0];
  }
  return count;
}

/** Writes generated keys along a property path; an array on the way takes one key per element. */
function assignKeys(
  target: unknown,
  path: readonly string[],
  keys: unknown[],
  st: CompiledStatement,
): void {
  if (Array.isArray(target)) {
    target.forEach((item, i) => assignKeys(item, path, [keys[i]], st));
    return;
  }
  if (target === null || typeof target !== "object") {
    throw new MapperError(
      `keyProperty "${st.keyProperty}" does not lead to an object in the arguments`,
      st.site,
    );
  }
  const [head, ...rest] = path;
  const record = target as Record<string, unknown>;
  if (rest.length === 0) {
    if (keys[0] !== undefined) record[head!] = keys[0];
    return;
  }
  assignKeys(record[head!], rest, keys, st);
}
