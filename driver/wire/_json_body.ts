// Reads a response body that must be JSON: an empty body, an HTML page, truncated JSON or a bare
// scalar is an InvalidResponseError (status, content type, redacted excerpt), never rows.

import { InvalidResponseError } from "../errors.ts";
import { parseExactJson } from "./_exact_json.ts";

/**
 * Parses a JSON response body, refusing anything that is not a JSON object or array.
 *
 * @param status The HTTP status.
 * @param text The body text.
 * @param contentType The `content-type` header ("" when absent).
 * @param command The command, kept on the error.
 * @param redactSecrets Removes the transport's credentials from the excerpt.
 * @returns The parsed object or array.
 */
export function parseJsonBody(
  status: number,
  text: string,
  contentType: string,
  command?: string,
  redactSecrets: (text: string) => string = (t) => t,
): object {
  // The errors are made on a failure only: no closure per call.
  // What nearly every answer says is tested as a string; anything else by the expression.
  if (contentType !== "application/json" && /html/i.test(contentType)) {
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
