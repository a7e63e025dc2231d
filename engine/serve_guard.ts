// What the HTTP server checks before the engine sees a request: credentials (basic or API key,
// answered with Elasticsearch's 401), the Host header (DNS rebinding) and the Origin of browser
// requests (CORS), with Elasticsearch-shaped refusals.

/** Credentials a served engine requires on every request. */
export interface ServeAuth {
  /** User name for HTTP basic authentication. */
  username?: string;
  /** Password for HTTP basic authentication. */
  password?: string;
  /**
   * Accepted API keys, as `id:api_key` or already base64-encoded (what clients send after
   * `Authorization: ApiKey `).
   */
  apiKeys?: readonly string[];
}

/** What {@link guard} needs to know about the server. */
export interface GuardOptions {
  /** The interface the server is bound to. */
  hostname: string;
  /** The bound port. */
  port: number;
  /** Required credentials, if any. */
  auth?: ServeAuth;
  /** Origins whose browser requests are allowed (`*` allows any). */
  cors?: readonly string[];
  /** Further names the `Host` header may carry (loopback names are always allowed). */
  allowedHosts?: readonly string[];
  /** Adds `X-Elastic-Product` to refusals, like the engine's other answers. */
  elastic?: boolean;
}

/** True for loopback interfaces: `127.0.0.0/8`, `::1`, `localhost`. */
export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h);
}

function sameSecret(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

function encodeKey(key: string): string {
  if (!key.includes(":")) return key;
  const bytes = new TextEncoder().encode(key);
  return btoa(String.fromCharCode(...bytes));
}

const CHALLENGES = ['Basic realm="security", charset="UTF-8"', "ApiKey"];

/** The error a refusal answers with, as Elasticsearch writes it. */
interface Refused {
  status: number;
  type: string;
  reason: string;
  /** Extra fields of the error object. */
  extra?: Record<string, unknown>;
}

function refusal(
  refused: Refused,
  opts: GuardOptions,
  extraHeaders: [string, string][] = [],
): Response {
  const { status, type, reason, extra = {} } = refused;
  const cause = { type, reason, ...extra };
  const headers = new Headers(extraHeaders);
  headers.set("content-type", "application/json; charset=UTF-8");
  if (opts.elastic) headers.set("x-elastic-product", "Elasticsearch");
  const body = { error: { root_cause: [cause], ...cause }, status };
  return new Response(JSON.stringify(body), { status, headers });
}

function authenticated(request: Request, auth: ServeAuth): "ok" | "missing" | "bad" {
  const header = request.headers.get("authorization");
  if (!header) return "missing";
  const space = header.indexOf(" ");
  const scheme = header.slice(0, space < 0 ? header.length : space).toLowerCase();
  const token = space < 0 ? "" : header.slice(space + 1).trim();
  if (scheme === "basic" && auth.username !== undefined && auth.password !== undefined) {
    let decoded: string;
    try {
      decoded = new TextDecoder().decode(Uint8Array.from(atob(token), (c) => c.charCodeAt(0)));
    } catch {
      return "bad";
    }
    const colon = decoded.indexOf(":");
    const user = decoded.slice(0, colon < 0 ? decoded.length : colon);
    const pass = colon < 0 ? "" : decoded.slice(colon + 1);
    return sameSecret(user, auth.username) && sameSecret(pass, auth.password) ? "ok" : "bad";
  }
  if (scheme === "apikey") {
    return (auth.apiKeys ?? []).some((k) => sameSecret(encodeKey(k), token)) ? "ok" : "bad";
  }
  return "bad";
}

function hostAllowed(host: string, opts: GuardOptions): boolean {
  const name = host.replace(/:\d+$/, "").replace(/^\[|\]$/g, "").toLowerCase();
  if (isLoopback(name)) return true;
  const bound = opts.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (name === bound) return true;
  return (opts.allowedHosts ?? []).some((h) => h.toLowerCase() === name);
}

/** The allowed origin for a browser request, or undefined when it is same-origin or not allowed. */
function allowedOrigin(origin: string, opts: GuardOptions): string | undefined {
  const list = opts.cors ?? [];
  if (list.includes("*")) return "*";
  return list.find((o) => o.replace(/\/$/, "") === origin) === undefined ? undefined : origin;
}

/** CORS headers for a response to `request` (empty unless its origin is allowed). */
export function corsHeaders(request: Request, opts: GuardOptions): [string, string][] {
  const origin = request.headers.get("origin");
  if (origin === null) return [];
  const allowed = allowedOrigin(origin, opts);
  if (allowed === undefined) return [];
  return [
    ["access-control-allow-origin", allowed],
    ["vary", "Origin"],
    ["access-control-allow-credentials", "true"],
  ];
}

/**
 * Checks one request before the engine sees it. Returns the refusal to send (403 for a foreign
 * `Host` or `Origin`, 401 with `WWW-Authenticate` for missing or wrong credentials, 200 for an
 * allowed CORS preflight), or undefined to let the engine answer.
 */
export function guard(request: Request, method: string, opts: GuardOptions): Response | undefined {
  const host = request.headers.get("host");
  if (isLoopback(opts.hostname) && host !== null && !hostAllowed(host, opts)) {
    return refusal({
      status: 403,
      type: "security_exception",
      reason:
        `Host header [${host}] is not allowed: this engine listens on loopback; pass allowedHosts (or --allow-host) to accept another name`,
    }, opts);
  }
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== `http://${host}` && !allowedOrigin(origin, opts)) {
    return refusal({
      status: 403,
      type: "security_exception",
      reason:
        `cross-origin request from [${origin}] is not allowed; allow it with cors (or --cors ${origin})`,
    }, opts);
  }
  if (method === "OPTIONS" && origin !== null) {
    const headers = corsHeaders(request, opts);
    headers.push(
      ["access-control-allow-methods", "GET, POST, PUT, DELETE, HEAD"],
      ["access-control-allow-headers", "Authorization, Content-Type, Accept, X-Opaque-Id"],
      ["access-control-max-age", "1728000"],
    );
    return new Response(null, { status: 200, headers });
  }
  const auth = opts.auth;
  if (!auth) return undefined;
  const state = authenticated(request, auth);
  if (state === "ok") return undefined;
  const path = new URL(request.url).pathname;
  const reason = state === "missing"
    ? `missing authentication credentials for REST request [${path}]`
    : `unable to authenticate with provided credentials and anonymous access is not allowed for this request`;
  return refusal(
    {
      status: 401,
      type: "security_exception",
      reason,
      extra: { header: { "WWW-Authenticate": CHALLENGES } },
    },
    opts,
    CHALLENGES.map((c) => ["www-authenticate", c]),
  );
}
