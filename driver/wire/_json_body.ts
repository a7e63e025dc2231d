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
  const { status, text, contentType, command } = reply;
  const redactSecrets = reply.redactSecrets ?? asIs;
  // The errors are made on a failure only: no closure per call.
  // What nearly every answer says (Elasticsearch's type, OpenSearch's and the engine's with
  // its charset) is tested as a string; anything else by the expression.
  if (
    contentType !== "application/json" && contentType !== "application/json; charset=UTF-8" &&
    /html/i.test(contentType)
  ) {
    throw new InvalidResponseError(
      { status, contentType, text: redactSecrets(text) },
      "an HTML page came where JSON is due",
      { command },
    );
  }
  let body: unknown;
  try {
    body = parseExactJson(text);
  } catch (cause) {
    const problem = text.trim() === ""
      ? "the body is empty where a JSON body is due"
      : "the body is not valid JSON (truncated, or not JSON at all)";
    throw new InvalidResponseError({ status, contentType, text: redactSecrets(text) }, problem, {
      command,
      cause,
    });
  }
  if (body === null || typeof body !== "object") {
    throw new InvalidResponseError(
      { status, contentType, text: redactSecrets(text) },
      "the body is a bare JSON value, not an object or array",
      { command },
    );
  }
  return body;
}
