// Parses connection strings: `jdbc:dbvisitor:elastic://h1:9200;h2?user=u&password=p` and
// `http(s)://[user:pass@]host:port[/prefix][?props]`. Credentials go into `auth`, never into a node.

import { redact } from "../error_base.ts";

/**
 * Removes credentials from a connection string or node URL, however malformed: everything
 * before the last `@` of the authority (user info with `#`, spaces, `?` or brackets in the
 * password) and the whole value of a secret property (up to the next `&`: a `;` is part of it).
 */
function redactUrl(text: string): string {
  let out = text;
  const at = out.lastIndexOf("@");
  if (at >= 0) {
    const scheme = out.indexOf("://");
    const from = scheme >= 0 && scheme < at ? scheme + 3 : 0;
    out = out.slice(0, from) + "***" + out.slice(at);
  }
  return redact(
    out.replace(
      /([?&;](?:user|username|password|pass|pwd|apikey|api_key|token|bearer)=)[^&]*/gi,
      "$1***",
    ),
  );
}

/**
 * Credentials, in one of three forms: basic, API key (encoded, or id + key), bearer token.
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * let sent = "";
 * const fetch = (_url: string, init: RequestInit) => {
 *   sent = new Headers(init.headers).get("authorization") ?? "";
 *   return Promise.resolve(Response.json({ version: { number: "8.15.0" } }));
 * };
 * const ds = new DataSource({ nodes: ["http://es:9200"], auth: { apiKey: "a2V5" }, fetch });
 * await (await ds.getConnection()).serverInfo();
 * assert.equal(sent, "ApiKey a2V5");
 * ```
 */
export type Auth =
  | { username: string; password: string }
  | { apiKey: string | { id: string; apiKey: string } }
  | { bearer: string };

/** Everything a connection string can say. */
export interface ParsedUrl {
  nodes: string[];
  auth?: Auth;
  timeoutMs?: number;
  requestTimeoutMs?: number;
  maxResponseBytes?: number;
  maxRetries?: number;
  retryBaseDelayMs?: number;
  indexRefresh?: boolean;
  compression?: boolean;
}

const JDBC_PREFIX = "jdbc:dbvisitor:elastic://";
const DEFAULT_PORT = 9200;

/**
 * Parses a connection string.
 *
 * @param url The connection string.
 * @returns Nodes, credentials and options.
 */
export function parseConnectionUrl(url: string): ParsedUrl {
  const trimmed = url.trim();
  if (trimmed.toLowerCase().startsWith(JDBC_PREFIX)) return parseJdbc(trimmed);
  if (/^https?:\/\//i.test(trimmed)) return parseHttp(trimmed);
  throw new TypeError(
    `Unsupported connection string "${redactUrl(trimmed)}": use ` +
      `jdbc:dbvisitor:elastic://host:9200[;host2:9200][?user=..&password=..] or http(s)://host:9200`,
  );
}

function parseJdbc(url: string): ParsedUrl {
  const rest = url.slice(JDBC_PREFIX.length);
  const q = rest.indexOf("?");
  const hostPart = (q < 0 ? rest : rest.slice(0, q)).split("/")[0]!;
  const props = readProps(q < 0 ? "" : rest.slice(q + 1));
  const scheme = props.get("https") === "true" ? "https" : "http";
  const hosts = hostPart.split(";").map((h) => h.trim()).filter((h) => h !== "");
  if (hosts.length === 0) {
    throw new TypeError(`No host in "${redactUrl(url)}": write jdbc:dbvisitor:elastic://host:9200`);
  }
  const nodes = hosts.map((h) => `${scheme}://${hostWithPort(h, url)}`);
  return { nodes, ...fromProps(props, url) };
}

function hostWithPort(host: string, url: string): string {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d+))?$/.exec(host);
  if (!m) {
    throw new TypeError(
      `Bad host "${redactUrl(host)}" in "${
        redactUrl(url)
      }": write host or host:port ([::1]:9200 for IPv6)`,
    );
  }
  return `${m[1]}:${m[2] ?? DEFAULT_PORT}`;
}

function parseHttp(url: string): ParsedUrl {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // The parser's own message quotes the raw URL (password included): keep no cause.
    throw new TypeError(`Bad URL "${redactUrl(url)}": write http(s)://host:9200`);
  }
  const props = readProps(parsed.search.slice(1));
  const result: ParsedUrl = { nodes: [nodeOf(parsed, url)], ...fromProps(props, url) };
  if (parsed.username !== "" && result.auth === undefined) {
    result.auth = {
      username: decodeURIComponent(parsed.username),
      password: decodeURIComponent(parsed.password),
    };
  }
  return result;
}

/**
 * The base URL of a node without credentials, query or trailing slash; `http://` is assumed when
 * the scheme is missing.
 *
 * @param url A node URL.
 * @returns The node and the credentials it carried.
 */
export function parseNode(url: string): { node: string; auth?: Auth } {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`;
  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    // The parser's own message quotes the raw URL (password included): keep no cause.
    throw new TypeError(`Bad node URL "${redactUrl(url)}": write http(s)://host:9200`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new TypeError(`Bad node URL "${redactUrl(url)}": only http and https are supported`);
  }
  const node = nodeOf(parsed, withScheme);
  if (parsed.username === "") return { node };
  return {
    node,
    auth: {
      username: decodeURIComponent(parsed.username),
      password: decodeURIComponent(parsed.password),
    },
  };
}

function nodeOf(parsed: URL, raw: string): string {
  // `new URL` drops a port equal to the scheme's default (80/443): put it back; no port means 9200.
  const authority = raw.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").split(/[/?#]/)[0]!;
  const hostPart = authority.slice(authority.lastIndexOf("@") + 1);
  const explicit = /:(\d+)$/.exec(hostPart);
  const port = parsed.port !== "" ? "" : `:${explicit ? explicit[1] : DEFAULT_PORT}`;
  return `${parsed.protocol}//${parsed.host}${port}${parsed.pathname}`.replace(/\/+$/, "");
}

/**
 * The properties after `?`, split on `&` only, as dbVisitor does: a `;` belongs to the value
 * (`password=Zq7Pw;Kx9Vt` is one password).
 */
function readProps(query: string): Map<string, string> {
  const props = new Map<string, string>();
  for (const pair of query.split("&")) {
    const eq = pair.indexOf("=");
    if (eq < 0) continue;
    const key = safeDecode(pair.slice(0, eq)).trim().toLowerCase();
    props.set(key, safeDecode(pair.slice(eq + 1)).trim());
  }
  return props;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

function fromProps(props: Map<string, string>, url: string): Omit<ParsedUrl, "nodes"> {
  const out: Omit<ParsedUrl, "nodes"> = {};
  const user = props.get("user") || props.get("username");
  const apiKey = props.get("apikey") || props.get("api_key");
  const bearer = props.get("token") || props.get("bearer");
  if (user) out.auth = { username: user, password: props.get("password") ?? "" };
  else if (apiKey) out.auth = { apiKey };
  else if (bearer) out.auth = { bearer };
  const timeout = props.get("timeoutms") ?? props.get("sockettimeout");
  if (timeout !== undefined) out.timeoutMs = positiveInt(timeout, "timeoutMs", url);
  const total = props.get("requesttimeoutms");
  if (total !== undefined) out.requestTimeoutMs = positiveInt(total, "requestTimeoutMs", url);
  const cap = props.get("maxresponsebytes");
  if (cap !== undefined) out.maxResponseBytes = positiveInt(cap, "maxResponseBytes", url);
  const retries = props.get("maxretries");
  if (retries !== undefined) out.maxRetries = positiveInt(retries, "maxRetries", url, true);
  const delay = props.get("retrybasedelayms");
  if (delay !== undefined) out.retryBaseDelayMs = positiveInt(delay, "retryBaseDelayMs", url, true);
  const refresh = props.get("indexrefresh");
  if (refresh !== undefined) out.indexRefresh = bool(refresh, "indexRefresh", url);
  const compression = props.get("compression");
  if (compression !== undefined) out.compression = bool(compression, "compression", url);
  return out;
}

function positiveInt(text: string, name: string, url: string, zeroOk = false): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || (n === 0 && !zeroOk)) {
    throw new TypeError(
      `Bad ${name}=${text} in "${redactUrl(url)}": write a whole number${zeroOk ? "" : " above 0"}`,
    );
  }
  return n;
}

function bool(text: string, name: string, url: string): boolean {
  const lower = text.toLowerCase();
  if (lower === "true" || lower === "") return true;
  if (lower === "false") return false;
  throw new TypeError(`Bad ${name}=${text} in "${redactUrl(url)}": write true or false`);
}

/**
 * Turns an Elastic Cloud id (`name:base64("host[:port]$esUUID$kibanaUUID")`) into the node URL
 * `https://<esUUID>.<host>[:port]` (port 443 when absent).
 *
 * @param cloudId The cloud id from the Elastic Cloud console.
 * @returns The node URL.
 */
export function parseCloudId(cloudId: string): string {
  const bad = (why: string) =>
    new TypeError(`Bad cloudId: ${why}; copy it from the Elastic Cloud console (name:base64...)`);
  const colon = cloudId.indexOf(":");
  let decoded: string;
  try {
    decoded = atob(cloudId.slice(colon + 1));
  } catch {
    throw bad("the part after the name is not base64");
  }
  const [hostPart, esId] = decoded.split("$");
  if (!hostPart || !esId) throw bad("it needs host$elasticsearch-id$kibana-id");
  const m = /^([^:]+)(?::(\d+))?$/.exec(hostPart);
  if (!m) throw bad("the host is not host[:port]");
  return `https://${esId}.${m[1]}:${m[2] ?? 443}`;
}
