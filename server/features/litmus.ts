// `scord/litmus`: runs the document's program as a litmus test under a memory model, in an
// analysis worker with the document's time and memory budgets, with progress and cancellation,
// and answers with the histogram of its outcomes. Bad parameters are refused with a message
// that says which one and what to send instead.
import * as path from 'node:path';
import { ErrorCodes, LSPErrorCodes, ResponseError, type CancellationToken, type Connection, type TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { type LitmusOptions } from '../../sims/litmus/types';
import { MEMORY_MODELS } from '../../sims/gpu/memoryModels';
import { analysisRequest, fileNameOf, runLimits } from '../analysis/scheduler';
import type { ParseHandoff } from '../analysis/parseHandoff';
import type { AnalysisFailure, AnalysisWorkers } from '../analysis/workers';
import type { LitmusParams, LitmusResult } from '../protocol';
import type { SettingsStore } from '../settings';
import { beginProgress } from './progress';

/** Random executions when the request names no number. */
export const DEFAULT_LITMUS_RUNS = 1000;
/** More random executions than this are refused: exhaustive exploration is the better tool. */
export const MAX_LITMUS_RUNS = 1_000_000;

function invalid(message: string): ResponseError<void> {
  return new ResponseError(ErrorCodes.InvalidParams, `scord/litmus: ${message}`);
}

const isWhole = (n: unknown, min: number, max: number): n is number => typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max;

/** The engine's options for a request, or the error that says which parameter is wrong. */
export function litmusOptions(params: LitmusParams, defaultSeed: number): LitmusOptions {
  if (!MEMORY_MODELS.includes(params.model)) throw invalid(`unknown memory model ${JSON.stringify(params.model)}: use ${MEMORY_MODELS.join(', ')}`);
  if (params.runs !== undefined && !isWhole(params.runs, 1, MAX_LITMUS_RUNS)) throw invalid(`runs must be a whole number from 1 to ${MAX_LITMUS_RUNS}, not ${JSON.stringify(params.runs)}`);
  if (params.exhaustive !== undefined && typeof params.exhaustive !== 'boolean') throw invalid(`exhaustive must be true or false, not ${JSON.stringify(params.exhaustive)}`);
  if (params.seed !== undefined && !isWhole(params.seed, 0, 2 ** 32 - 1)) throw invalid(`seed must be a whole number from 0 to ${2 ** 32 - 1}, not ${JSON.stringify(params.seed)}`);
  if (params.maxExecutions !== undefined && !isWhole(params.maxExecutions, 1, Number.MAX_SAFE_INTEGER)) throw invalid(`maxExecutions must be a positive whole number, not ${JSON.stringify(params.maxExecutions)}`);
  if (params.observe !== undefined) {
    if (!Array.isArray(params.observe)) throw invalid(`observe must be a list of __device__ variable names, not ${JSON.stringify(params.observe)}`);
    const bad = params.observe.find((v) => typeof v !== 'string' || !/^[A-Za-z_]\w*$/.test(v));
    if (bad !== undefined) throw invalid(`observe names ${JSON.stringify(bad)}, which is not a variable name`);
  }
  return {
    model: params.model,
    exhaustive: params.exhaustive === true,
    runs: params.runs ?? DEFAULT_LITMUS_RUNS,
    seed: params.seed ?? defaultSeed,
    ...(params.maxExecutions !== undefined ? { maxExecutions: params.maxExecutions } : {}),
    ...(params.observe?.length ? { observe: params.observe } : {}),
  };
}

/** A litmus run that gave no histogram, as the request's error (a cancelled one as LSP says). */
function failure(o: AnalysisFailure): ResponseError<void> | Error {
  switch (o.kind) {
    case 'cancelled':
      return new ResponseError(LSPErrorCodes.RequestCancelled, 'scord/litmus: the litmus run was cancelled');
    case 'timeout':
      return new Error(`scord/litmus: the litmus run was stopped after ${o.budgetMs} ms (scord.analysis.timeBudgetMs): ask for fewer runs, or raise the budget`);
    case 'out-of-memory':
      return new Error(`scord/litmus: the litmus run ran out of memory (${o.limitMb} MB, scord.analysis.memoryLimitMb)`);
    case 'failed':
      return new Error(`scord/litmus: ${o.message}`);
  }
}

export interface LitmusHost {
  connection: Connection;
  documents: TextDocuments<TextDocument>;
  settings: SettingsStore;
  workers: AnalysisWorkers;
  /** Text of a file: an open document wins over the disk. */
  readFile(path: string): string | undefined;
  /** The server's parse of an open document's current version, for the worker to take. */
  parseOf(uri: string): { parse?: ParseHandoff };
}

export function litmusHandler(host: LitmusHost): (params: LitmusParams, token: CancellationToken) => Promise<LitmusResult> {
  return async (params, token) => {
    if (typeof params?.uri !== 'string') throw invalid('uri must name a document');
    const fileName = fileNameOf(params.uri);
    const text = host.documents.get(params.uri)?.getText() ?? host.readFile(fileName);
    if (text === undefined) throw invalid(`${params.uri} is neither open nor readable`);
    const s = await host.settings.get(params.uri);
    const options = litmusOptions(params, s.simulator.seed);
    if (params.timeBudgetMs !== undefined && !isWhole(params.timeBudgetMs, 1, 24 * 3_600_000)) throw invalid(`timeBudgetMs must be a positive whole number of milliseconds, not ${JSON.stringify(params.timeBudgetMs)}`);
    const limits = { ...runLimits(s), ...(params.timeBudgetMs !== undefined ? { timeBudgetMs: params.timeBudgetMs } : {}) };
    const handle = host.workers.litmus({ ...analysisRequest(params.uri, text, s, host.documents.all(), {}, false), ...host.parseOf(params.uri) }, options, limits);
    const how = options.exhaustive ? 'every execution' : `${options.runs} runs`;
    const progress = beginProgress(host.connection, params.workDoneToken, `Litmus ${path.basename(fileName)} under ${options.model} (${how})`, () => handle.cancel());
    const onCancel = token.onCancellationRequested(() => handle.cancel());
    const outcome = await handle.outcome;
    onCancel.dispose();
    progress.done();
    if (outcome.kind !== 'litmus') throw failure(outcome);
    return { ...outcome.report, uri: params.uri, elapsedMs: outcome.elapsedMs };
  };
}
