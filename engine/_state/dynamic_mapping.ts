// Dynamic mapping: the fields Elasticsearch adds to a mapping when a document brings new ones.

import { sparseVectorProblem } from "./sparse_vector_values.ts";
import {
  checkMappingLimits,
  countFields,
  type MappingLimits,
  mappingLimits,
  nestedObjectsReason,
} from "./mapping_limits.ts";
import { own, ownOrSet, setOwn } from "../_index/own.ts";
import { checkPoint, parsePoint, pointValues } from "../_index/geo.ts";
import { EngineError, esError, illegalArgument } from "../_errors.ts";
import type { FieldMapping, Mappings } from "../_index/types.ts";
import { checkValue, immenseTerm, previewValue } from "./field_values.ts";
import {
  dynamicVectorMapping,
  isVectorType,
  readVectorSpec,
  vectorProblem,
  withVectorDefaults,
} from "../_index/vectors.ts";

const METADATA_FIELDS = new Set([
  "_id",
  "_index",
  "_routing",
  "_source",
  "_seq_no",
  "_version",
  "_primary_term",
  "_field_names",
  "_ignored",
  "_doc_count",
  "_tier",
  "_nested_path",
]);

/** How document parse failures are named: ES 8 `document_parsing_exception`, OpenSearch `mapper_parsing_exception`. */
export type ParseErrorType = "document_parsing_exception" | "mapper_parsing_exception";

const DATE_PATTERNS = [
  /^\d{4}-\d{2}-\d{2}(?:T\d{2}(?::\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/,
  /^\d{4}\/\d{2}\/\d{2}(?: \d{2}:\d{2}:\d{2})?$/,
];

/** True when a string looks like a date to Elasticsearch's default `date_detection`. */
export function looksLikeDate(text: string): boolean {
  if (!DATE_PATTERNS.some((re) => re.test(text))) return false;
  const month = Number(text.slice(5, 7));
  const day = Number(text.slice(8, 10));
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

/** Which strings dynamic mapping reads as more than text (the mapping's `*_detection`). */
export interface Detection {
  /** `date_detection`: a string that looks like a date maps as `date`. */
  dateDetection: boolean;
  /** `numeric_detection`: a string that is a number maps as `long` or `float`. */
  numericDetection?: boolean;
}

/** The mapping Elasticsearch's dynamic mapping gives to a value, or undefined for null/empty arrays. */
export function dynamicMappingFor(value: unknown, detect: Detection): FieldMapping | undefined {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    const first = value.find((v) => v !== null && v !== undefined);
    return first === undefined ? undefined : dynamicMappingFor(first, detect);
  }
  const { dateDetection, numericDetection = false } = detect;
  switch (typeof value) {
    case "boolean":
      return { type: "boolean" };
    case "number":
      return Number.isInteger(value) ? { type: "long" } : { type: "float" };
    case "string":
      if (dateDetection && looksLikeDate(value)) return { type: "date" };
      if (numericDetection && /^-?\d+$/.test(value.trim())) return { type: "long" };
      if (numericDetection && value.trim() !== "" && Number.isFinite(Number(value))) {
        return { type: "float" };
      }
      return { type: "text", fields: { keyword: { type: "keyword", ignore_above: 256 } } };
    case "object": {
      const properties: Record<string, FieldMapping> = {};
      for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
        const mapped = dynamicMappingFor(child, detect);
        if (mapped) addAtPath(properties, key.split("."), mapped);
      }
      return { properties };
    }
  }
  return undefined;
}

function addAtPath(
  props: Record<string, FieldMapping>,
  path: string[],
  mapping: FieldMapping,
): void {
  if (path.length === 1) {
    setOwn(props, path[0]!, mapping);
    return;
  }
  const head = ownOrSet(props, path[0]!, (): FieldMapping => ({ properties: {} }));
  head.properties ??= {};
  addAtPath(head.properties, path.slice(1), mapping);
}

interface Walk extends Detection {
  id: string;
  errorType: ParseErrorType;
  dateDetection: boolean;
  numericDetection: boolean;
  additions: Array<{ path: string[]; mapping: FieldMapping }>;
  /** Nested objects seen so far, and how many are allowed. */
  nested: number;
  /** The index's mapping limits, read when first needed. */
  limits: () => MappingLimits;
}

function parseFailure(walk: Walk, reason: string): EngineError {
  return esError(walk.errorType, reason);
}

/** A vector field takes one array of `dims` numbers (see `vectorProblem`). */
function checkVector(walk: Walk, mapping: FieldMapping, value: unknown, path: string[]): void {
  if (value === null || value === undefined) return;
  const field = path.join(".");
  const spec = readVectorSpec(field, mapping);
  const problem = vectorProblem(spec, field, value);
  if (problem === undefined) {
    // The first vector of a field mapped without dims sets them.
    if (spec.dims === 0 && Array.isArray(value)) {
      walk.additions.push({ path, mapping: { ...mapping, dims: value.length } });
    }
    return;
  }
  throw new EngineError(
    400,
    walk.errorType,
    `[1:2] failed to parse: ${problem} (document with id '${walk.id}')`,
    { causedBy: new EngineError(400, "illegal_argument_exception", problem) },
  );
}

/** Each point of a geo_point value must parse and lie on the globe, unless `ignore_malformed`. */
function checkGeoPoint(walk: Walk, mapping: FieldMapping, value: unknown, path: string[]): void {
  if (mapping.ignore_malformed === true) return;
  const field = path.join(".");
  for (const raw of pointValues(value)) {
    let problem: EngineError | undefined;
    try {
      problem = checkPoint(parsePoint(raw), field);
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      problem = e;
    }
    if (problem) {
      throw esError(
        walk.errorType,
        `failed to parse field [${field}] of type [geo_point]`,
        {},
        problem,
      );
    }
  }
}

/** Where the walk stands: the path of an object or field, and the `dynamic` setting in force. */
interface Place {
  readonly path: string[];
  readonly dynamic: unknown;
}

function visitObject(
  walk: Walk,
  props: Record<string, FieldMapping> | undefined,
  source: Record<string, unknown>,
  at: Place,
): void {
  const { path: prefix, dynamic } = at;
  const names = Object.keys(source);
  for (let k = 0; k < names.length; k++) {
    const rawKey = names[k]!;
    const value = source[rawKey];
    if (!rawKey.includes(".")) {
      const mapping = own(props, rawKey);
      if (mapping) {
        // The common case, a single value of a leaf field that takes it: nothing to build.
        if (plainLeafFits(mapping, value)) continue;
        visitValue(walk, mapping, value, {
          path: prefix.length ? [...prefix, rawKey] : [rawKey],
          dynamic,
        });
      } else addNew(walk, at, [rawKey], value);
      continue;
    }
    const keys = rawKey.split(".");
    let node = props;
    let dyn = dynamic;
    let path = prefix;
    let missingAt = -1;
    for (let i = 0; i < keys.length - 1; i++) {
      const child = own(node, keys[i]!);
      path = [...path, keys[i]!];
      if (!child) {
        missingAt = i;
        break;
      }
      if (child.dynamic !== undefined) dyn = child.dynamic;
      node = child.properties;
    }
    if (missingAt >= 0) {
      addNew(walk, { path: prefix, dynamic: dyn }, keys, value);
      continue;
    }
    const last = keys[keys.length - 1]!;
    const fullPath = [...path, last];
    const mapping = own(node, last);
    if (!mapping) {
      addNew(walk, { path: prefix, dynamic: dyn }, keys, value);
      continue;
    }
    visitValue(walk, mapping, value, { path: fullPath, dynamic: dyn });
  }
}

/**
 * Field types {@link visitValue} checks with a checker of their own before `checkValue` (vectors,
 * points, objects): {@link plainLeafFits} leaves them to it.
 */
function checkedApart(type: string): boolean {
  return isVectorType(type) || type === "geo_point" || type === "sparse_vector" ||
    type === "object" || type === "nested";
}

/**
 * Whether {@link visitValue} would accept `value` for `mapping` without looking further: a
 * string, number or boolean for a leaf type that takes it (the same checks, without a path).
 */
function plainLeafFits(mapping: FieldMapping, value: unknown): boolean {
  const type = mapping.type;
  if (type === undefined || checkedApart(type)) return false;
  const t = typeof value;
  if (t !== "string" && t !== "number" && t !== "boolean") return false;
  return checkValue(type, value) === undefined &&
    (type !== "keyword" || immenseTerm(type, mapping.ignore_above, "", value) === undefined);
}

function visitValue(walk: Walk, mapping: FieldMapping, value: unknown, at: Place): void {
  const path = at.path;
  if (isVectorType(mapping.type)) return checkVector(walk, mapping, value, path);
  if (mapping.type === "geo_point") return checkGeoPoint(walk, mapping, value, path);
  if (mapping.type === "sparse_vector") {
    const problem = sparseVectorProblem(path.join("."), value);
    if (problem) {
      throw esError(walk.errorType, `[1:2] failed to parse: ${problem.message}`, {}, problem);
    }
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) visitValue(walk, mapping, item, at);
    return;
  }
  if (value === null || value === undefined) return;
  const isObjectMapping = mapping.type === undefined || mapping.type === "object" ||
    mapping.type === "nested";
  if (
    isObjectMapping && mapping.properties !== undefined || mapping.type === "object" ||
    mapping.type === "nested"
  ) {
    if (typeof value !== "object") {
      throw parseFailure(
        walk,
        `object mapping for [${path.join(".")}] tried to parse field [${
          path[path.length - 1]
        }] as object, but found a concrete value`,
      );
    }
    if (mapping.type === "nested" && ++walk.nested > walk.limits().nestedObjects) {
      throw parseFailure(walk, nestedObjectsReason(walk.limits().nestedObjects));
    }
    const childDynamic = mapping.dynamic ?? at.dynamic;
    visitObject(walk, mapping.properties, value as Record<string, unknown>, {
      path,
      dynamic: childDynamic,
    });
    return;
  }
  const problem = checkValue(mapping.type ?? "object", value) ??
    immenseTerm(mapping.type, mapping.ignore_above, path.join("."), value);
  if (problem) {
    throw esError(
      walk.errorType,
      `failed to parse field [${
        path.join(".")
      }] of type [${mapping.type}] in document with id '${walk.id}'. Preview of field's value: '${
        previewValue(value)
      }'`,
      {},
      problem,
    );
  }
}

/** A field the mapping lacks, `keys` below `at` (the object it stands in): mapped, ignored or refused. */
function addNew(walk: Walk, at: Place, keys: string[], value: unknown): void {
  const prefix = at.path;
  const mode = String(at.dynamic ?? "true");
  if (mode === "false" || mode === "runtime") return;
  if (mode === "strict" || mode === "strict_allow_templates") {
    const parent = prefix.length ? prefix.join(".") : "_doc";
    throw esError(
      "strict_dynamic_mapping_exception",
      `[1:2] mapping set to strict, dynamic introduction of [${
        keys[0]
      }] within [${parent}] is not allowed`,
    );
  }
  // Elasticsearch (not OpenSearch) maps a long array of floats as a dense_vector.
  const mapping =
    (walk.errorType === "document_parsing_exception" ? dynamicVectorMapping(value) : undefined) ??
      dynamicMappingFor(value, walk);
  if (mapping) walk.additions.push({ path: [...prefix, ...keys], mapping });
}

/**
 * What is wrong with a field name of a document, in Elasticsearch's words and OpenSearch's, or
 * undefined. Both refuse an empty name, one of dots only, one starting with a dot and one with two
 * dots in a row (a trailing dot is accepted); Elasticsearch also one of whitespace only.
 */
function nameProblem(
  key: string,
  errorType: ParseErrorType,
): { message: string; cause: boolean } | undefined {
  const opensearch = errorType === "mapper_parsing_exception";
  if (key === "") return { message: "field name cannot be an empty string", cause: true };
  if (/^\.+$/.test(key)) {
    const message = opensearch
      ? "field name cannot contain only the character [.]"
      : "field name cannot contain only dots";
    return { message, cause: true };
  }
  if (key.startsWith(".") || key.includes("..")) {
    const message = opensearch
      ? `object field starting or ending with a [.] makes object resolution ambiguous: [${key}]`
      : `field name cannot contain only whitespace: ['${key}']`;
    return { message, cause: true };
  }
  if (!opensearch && key.trim() === "") {
    return { message: `Field name cannot contain only whitespace: [${key}]`, cause: false };
  }
  return undefined;
}

/**
 * Whether {@link nameProblem} surely finds nothing wrong with `key`: it starts with a printable
 * ASCII char other than `.` (so it is neither empty, nor dots or whitespace only) and has no `..`.
 */
function plainName(key: string): boolean {
  const c = key.charCodeAt(0);
  return c > 32 && c < 127 && c !== 46 && !key.includes("..");
}

/**
 * Refuses a document with a field name the real engines refuse (see `nameProblem`), anywhere in
 * it: Elasticsearch 9.5.4 as `document_parsing_exception` caused by `illegal_argument_exception`,
 * OpenSearch 3.8.0 as `mapper_parsing_exception` (`failed to parse`) caused by the same.
 */
function checkFieldNames(value: unknown, errorType: ParseErrorType): void {
  if (Array.isArray(value)) {
    for (const item of value) checkFieldNames(item, errorType);
    return;
  }
  if (value === null || typeof value !== "object") return;
  const opensearch = errorType === "mapper_parsing_exception";
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!;
    const child = object[key];
    if (plainName(key)) {
      if (child !== null && typeof child === "object") checkFieldNames(child, errorType);
      continue;
    }
    const problem = nameProblem(key, errorType);
    if (problem && !problem.cause) throw esError(errorType, `[1:2] ${problem.message}`);
    if (problem) {
      const reason = opensearch ? "failed to parse" : `[1:2] failed to parse: ${problem.message}`;
      throw esError(errorType, reason, {}, illegalArgument(problem.message));
    }
    checkFieldNames(child, errorType);
  }
}

/** How an index maps a document: the name of its parse failures and its mapping's limits. */
export interface MappingRules {
  /** The error type of a document the mapping cannot take (it differs by flavour). */
  errorType: ParseErrorType;
  /** `index.mapping.total_fields.limit`; 1000 by default. */
  fieldLimit?: number;
  /**
   * The index's other mapping limits, or how to read them (only when a document needs them: it
   * adds fields or holds nested objects); the defaults by default.
   */
  limits?: MappingLimits | (() => MappingLimits);
}

/**
 * Checks `source` against `mappings` and returns the mappings extended with dynamic fields
 * (the same object when nothing was added). Throws for values the mapping cannot take.
 */
export function mapDocument(
  mappings: Mappings,
  source: Record<string, unknown>,
  id: string,
  rules: MappingRules,
): Mappings {
  const { errorType, fieldLimit = 1000 } = rules;
  const given = rules.limits;
  let read: MappingLimits | undefined = typeof given === "function" ? undefined : given;
  const limits = (): MappingLimits =>
    read ??= typeof given === "function" ? given() : mappingLimits({});
  const walk: Walk = {
    id,
    errorType,
    dateDetection: mappings.date_detection !== false,
    numericDetection: mappings.numeric_detection === true,
    additions: [],
    nested: 0,
    limits,
  };
  for (const key of Object.keys(source)) {
    if (key.charCodeAt(0) === 95 && METADATA_FIELDS.has(key)) {
      throw esError(
        errorType,
        `[1:2] Field [${key}] is a metadata field and cannot be added inside a document. Use the index API request parameters.`,
      );
    }
  }
  checkFieldNames(source, errorType);
  visitObject(walk, mappings.properties, source, { path: [], dynamic: mappings.dynamic });
  if (walk.additions.length === 0) return mappings;
  const next = structuredClone(mappings);
  next.properties ??= {};
  for (const { path, mapping } of walk.additions) mergeAddition(next.properties, path, mapping);
  // Elasticsearch counts the fields as the document adds them, then checks the grown mapping;
  // each refusal is the document's parse failure, caused by the limit's own error.
  try {
    const total = countFields(next.properties);
    if (total > fieldLimit) {
      const added = total - countFields(mappings.properties ?? {});
      throw illegalArgument(
        `Limit of total fields [${fieldLimit}] has been exceeded while adding new fields [${added}]`,
      );
    }
    checkMappingLimits(next.properties, limits());
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    throw esError(errorType, `[1:2] failed to parse: ${e.message}`, {}, e);
  }
  return next;
}

function mergeAddition(
  props: Record<string, FieldMapping>,
  path: string[],
  mapping: FieldMapping,
): void {
  const [head, ...rest] = path;
  if (rest.length === 0) {
    const existing = own(props, head!);
    if (existing?.properties && mapping.properties) {
      for (const [k, v] of Object.entries(mapping.properties)) {
        mergeAddition(existing.properties, [k], v);
      }
    } else if (!existing) setOwn(props, head!, mapping);
    else if (isVectorType(existing.type) && existing.dims === undefined) {
      // Elasticsearch's defaults were filled in at creation (a `similarity` shows it): the
      // dims make the default `index_options` known, printed in their place.
      const filled = existing.similarity !== undefined
        ? withVectorDefaults({ ...existing, dims: mapping.dims })
        : { ...existing, dims: mapping.dims };
      for (const key of Object.keys(existing)) delete existing[key];
      Object.assign(existing, filled);
    }
    return;
  }
  const node = ownOrSet(props, head!, (): FieldMapping => ({ properties: {} }));
  node.properties ??= {};
  mergeAddition(node.properties, rest, mapping);
}
