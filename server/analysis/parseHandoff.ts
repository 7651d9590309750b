// A document version is parsed once. The server's thread parses each version at once (its
// syntax problems, lenses and hovers come from that parse); the run's request carries the same
// parse to the analysis worker, which takes it instead of parsing the text again — when it is
// the parse the worker would make: the same text, the same preprocessor flags, and every file
// the parse read (headers, open documents) reading the same now. Anything else (a header saved
// in between, a compile_commands.json entry with other flags, a fix's re-run of edited text)
// and the worker parses for itself.
//
// The parse travels in V8's serialised form (what structuredClone and the worker's message
// channel use), made once per version and sent as bytes through both hops (the analysis
// process, its thread).
import { createHash } from 'node:crypto';
import * as v8 from 'node:v8';
import type { ParseResult } from '../../sims/frontend/index';
import type { ReadSourceFile } from '../../sims/frontend/preprocessor';

/** The flags a parse was made with. */
export interface ParseInputs {
  fileName: string;
  defines: string[];
  undefines: string[];
  includePaths: string[];
  maxOutputTokens: number;
}

/** A parse as the request carries it. */
export interface ParseHandoff {
  inputs: ParseInputs;
  /** The hash of the text parsed. */
  text: string;
  /** Each file the parse asked for, with what it got: a hash of the text, `none` or why it was refused. */
  reads: [string, string][];
  /** The parse, serialised. */
  bytes: Uint8Array;
}

/** What a read gives, as the preprocessor takes it: a read that throws (a name too long for the file system) reads nothing. */
function readAsParsed(read: ReadSourceFile, p: string): ReturnType<ReadSourceFile> {
  try {
    return read(p);
  } catch {
    return undefined;
  }
}

/** What a read gave, as one string to compare. */
function readSeal(r: ReturnType<ReadSourceFile>): string {
  if (typeof r === 'string') return `text:${hashOf(r)}`;
  return r === undefined ? 'none' : `refused:${r.refused}`;
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}

/**
 * A reader that remembers what it gave (the parse asks for a file once for each side, host and
 * device): `handoff` then packs a parse made with it.
 */
export class RecordedReads {
  private readonly seals = new Map<string, string>();
  /** A file that read differently on a second ask: the parse is not one to hand on. */
  private unstable = false;

  constructor(private readonly read: ReadSourceFile) {}

  readonly reader: ReadSourceFile = (p) => {
    const r = readAsParsed(this.read, p);
    const seal = readSeal(r);
    const before = this.seals.get(p);
    if (before !== undefined && before !== seal) this.unstable = true;
    this.seals.set(p, seal);
    return r;
  };

  /** The parse of `text` made with this reader and `inputs`, packed; undefined when reads changed under it. */
  handoff(parsed: ParseResult, text: string, inputs: ParseInputs): ParseHandoff | undefined {
    if (this.unstable) return undefined;
    return { inputs, text: hashOf(text), reads: [...this.seals], bytes: v8.serialize(parsed) };
  }
}

/**
 * The handed-on parse, when it is the one the worker would make of `text` with `inputs` and
 * `read`; undefined otherwise. Each file the parse read is read again (open documents from
 * memory, the disk through the same policy): `onRead` sees each path, as a parse's reads are
 * seen (the run's dependencies).
 */
export function takeHandoff(handoff: ParseHandoff | undefined, text: string, inputs: ParseInputs, read: ReadSourceFile, onRead: (p: string) => void): ParseResult | undefined {
  if (!handoff || !sameInputs(handoff.inputs, inputs) || handoff.text !== hashOf(text)) return undefined;
  for (const [p] of handoff.reads) onRead(p);
  for (const [p, seal] of handoff.reads) if (readSeal(readAsParsed(read, p)) !== seal) return undefined;
  try {
    return v8.deserialize(handoff.bytes) as ParseResult;
  } catch {
    return undefined; // bytes that are no parse (they never should be): the worker parses
  }
}

function sameInputs(a: ParseInputs, b: ParseInputs): boolean {
  const same = (x: string[], y: string[]): boolean => x.length === y.length && x.every((v, i) => v === y[i]);
  return a.fileName === b.fileName && a.maxOutputTokens === b.maxOutputTokens && same(a.defines, b.defines) && same(a.undefines, b.undefines) && same(a.includePaths, b.includePaths);
}
