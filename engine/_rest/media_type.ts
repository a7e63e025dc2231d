// Compatibility media types (`application/vnd.elasticsearch+json; compatible-with=N`), checked like the real servers.

import { esError } from "../_errors.ts";
import type { EngineState, Reply } from "./context.ts";

const VENDOR =
  /^application\/vnd\.(elasticsearch|opensearch)\+(json|x-ndjson)\s*;\s*compatible-with\s*=\s*(\d+)/i;

/**
 * The `compatible-with` versions an Elasticsearch of `major` answers: its own and the older ones
 * down to 7 (the clients of Elasticsearch 7, 8 and 9 all work against the default engine).
 */
export function compatibleMajors(major: number): number[] {
  const out = [major, major - 1];
  for (let m = major - 2; m >= 7; m--) out.push(m);
  return out;
}

/**
 * The `compatible-with` version a request asked for in `Accept` (else `Content-Type`), when it
 * is one this engine answers; the response then carries the same vendor media type.
 */
export function requestedCompat(state: EngineState, headers: Headers): number | undefined {
  if (state.flavour !== "elasticsearch") return undefined;
  const accept = (headers.get("accept") ?? "").split(",").map((a) => VENDOR.exec(a.trim()));
  const m = accept.find((x) => x !== null) ??
    VENDOR.exec((headers.get("content-type") ?? "").trim());
  if (!m) return undefined;
  const v = Number(m[3]);
  return compatibleMajors(Number(state.version.split(".")[0])).includes(v) ? v : undefined;
}

/**
 * Checks the `Accept` and `Content-Type` headers. Elasticsearch accepts `compatible-with` its own major
 * or the previous one; OpenSearch refuses Elasticsearch vendor types with 406. Returns a reply to send
 * instead of handling the request, or undefined when the headers are acceptable.
 */
export function checkMediaTypes(state: EngineState, headers: Headers): Reply | undefined {
  const contentType = headers.get("content-type") ?? "";
  const accept = headers.get("accept") ?? "";
  const ct = VENDOR.exec(contentType.trim());
  const ac = accept.split(",").map((a) => VENDOR.exec(a.trim())).find((m) => m !== null);
  if (state.flavour === "opensearch") {
    if (ct && ct[1]!.toLowerCase() === "elasticsearch") {
      return {
        status: 406,
        body: { error: `Content-Type header [${contentType}] is not supported`, status: 406 },
      };
    }
    return undefined;
  }
  const major = Number(state.version.split(".")[0]);
  const allowed = compatibleMajors(major);
  const problems: string[] = [];
  if (ac && !allowed.includes(Number(ac[3]))) {
    problems.push(
      `Accept version must be either version ${major} or ${major - 1}, but found ${
        ac[3]
      }. Accept=${accept}`,
    );
  } else if (ct && !allowed.includes(Number(ct[3]))) {
    problems.push(
      `Content-Type version must be either version ${major} or ${major - 1}, but found ${
        ct[3]
      }. Content-Type=${contentType}`,
    );
  } else if (ac && ct && ac[3] !== ct[3]) {
    problems.push(
      `A compatible version is required on both Content-Type and Accept headers if either one has requested a compatible version and the compatible versions must match. Accept=${accept}, Content-Type=${contentType}`,
    );
  }
  if (problems.length === 0) return undefined;
  const error = esError(
    "media_type_header_exception",
    "Invalid media-type value on headers [Accept, Content-Type]",
    {},
    esError("status_exception", problems[0]!),
  );
  return {
    status: 400,
    body: { error: { root_cause: [error.toCause()], ...error.toCause() }, status: 400 },
  };
}

const BODY_TYPES =
  /^application\/(json|x-ndjson|vnd\.(elasticsearch|opensearch)\+(json|x-ndjson))$/i;

/**
 * A request with a body needs a JSON (or NDJSON) `Content-Type`, as on Elasticsearch and OpenSearch:
 * missing or other types (`text/plain`, form encoding) get 406. (A request without a body needs
 * none: the caller asks only of one with a body.)
 */
export function checkBodyContentType(headers: Headers): Reply | undefined {
  const header = headers.get("content-type");
  if (header === null) {
    return { status: 406, body: { error: "Content-Type header is missing", status: 406 } };
  }
  const base = header.split(";")[0]!.trim();
  if (BODY_TYPES.test(base)) return undefined;
  return {
    status: 406,
    body: { error: `Content-Type header [${header}] is not supported`, status: 406 },
  };
}
