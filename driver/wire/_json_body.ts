// Reads a response body that must be JSON: an empty body, an HTML page, truncated JSON or a bare
// scalar is an InvalidResponseError (status, content type, redacted excerpt), never rows.

import { InvalidResponseError } from "../errors.ts";
import { parseExactJson } from "./_exact_json.ts";

/** A response body as the transport read it, and what an error about it says. */
export interface JsonReply {
  /** The HTTP status. */
  status: number;
  /** The body text. */
  text: string;
  /** The `content-type` header ("" when absent). */
  contentType: string;
  /** The command, kept on the error. */
  command?: string;
  /** Removes the transport's credentials from an error's excerpt (none: the text as is). */
  redactSecrets?: (text: string) => string;
}

const asIs = (text: string): string => text;

/**
 * Parses a JSON response body, refusing anything that is not a JSON object or array.
 *
 * @param reply The status, body text and content type, and the command for the error.
 * @returns The parsed object or array.
 */
export function parseJsonBody(reply: JsonReply): object {
  const text = reply.text;
  // The errors are made on a failure only: no closure per call, and the content type is read
  // then only (a reply may look it up when asked). A body that parses as a JSON object or array
  // is JSON whatever its label; an HTML page never parses, and its label names the error.
  let body: unknown;
  try {
    body = parseExactJson(text);
  } catch (cause) {
    const problem = isHtml(reply.contentType)
      ? "an HTML page came where JSON is due"
      : text.trim() === ""
      ? "the body is empty where a JSON body is due"
      : "the body is not valid JSON (truncated, or not JSON at all)";
    throw invalid(reply, problem, cause);
  }
  if (body === null || typeof body !== "object") {
    throw invalid(
      reply,
      isHtml(reply.contentType)
        ? "an HTML page came where JSON is due"
        : "the body is a bare JSON value, not an object or array",
    );
  }
  return body;
}

/** An HTML content type (what nearly every JSON answer says is told without the expression). */
function isHtml(contentType: string): boolean {
  return contentType !== "application/json" &&
    contentType !== "application/json; charset=UTF-8" && /html/i.test(contentType);
}

function invalid(reply: JsonReply, problem: string, cause?: unknown): InvalidResponseError {
  const { status, text, command } = reply;
  const redactSecrets = reply.redactSecrets ?? asIs;
  return new InvalidResponseError(
    { status, contentType: reply.contentType, text: redactSecrets(text) },
    problem,
    cause === undefined ? { command } : { command, cause },
  );
}
