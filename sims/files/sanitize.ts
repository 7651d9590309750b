// Text from a source file, made safe to print: a file must not be able to rewrite or hide
// lines of a terminal or a CI log (control characters, escape sequences, bidirectional
// overrides), nor have a diagnostic echo long stretches of a file outside the workspace (an
// include of a secret).
//
// Pure string functions: the engine's diagnostics pass through `clipOutside` where they are
// made, and the CLI's text output through `escapeControls`.

/** Characters that move the cursor or change what a terminal shows, other than newline and tab. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Control characters (except newline and tab) written as `\xNN` or `\u{NNNN}`. */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
  });
}

/** The most characters of a token from a file outside the workspace that a diagnostic shows. */
export const OUTSIDE_ECHO_LIMIT = 40;

function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}…`;
}

/**
 * A diagnostic message about a file outside the workspace with every quoted token (and any
 * run of characters without a space) cut to OUTSIDE_ECHO_LIMIT characters; a directive's own
 * text (`#error …`) is cut as a whole.
 */
export function clipOutside(message: string, wholeText: boolean): string {
  if (wholeText) return clip(message, OUTSIDE_ECHO_LIMIT);
  return message.replace(/\S{41,}/g, (run) => clip(run, OUTSIDE_ECHO_LIMIT));
}
