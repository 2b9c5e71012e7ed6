// The API client the CLI uses: the @rts/sdk package's (packages/sdk, the one copy of the code), with two adaptations
// for the CLI: uploads of documents read from files, and the cells of a single CI run as the reports read them.
import { RtsClient, type ApiResponse, type CiCell, type CiRunView, type TraceCreated, type TraceInput } from '../../packages/sdk/src/index';

/**
 * GET /v1/ci/runs/{run_id} as `rts ci run` reads it: its cells complete, as a batch scenario's are; absent when the
 * service answers without them (the report then builds them from the run's attempts).
 */
export type CiRunReport = Omit<CiRunView, 'cells'> & { cells?: CiCell[] };

/** The package's client, as `rts traces upload` and `rts ci run` use it. */
export class CliClient extends RtsClient {
  /** Uploads a document read from a file, whatever it holds: the API validates it (native trace or OTLP/JSON). */
  override uploadTrace<T = TraceCreated>(trace: unknown, idempotencyKey?: string): Promise<ApiResponse<T>> {
    return super.uploadTrace(trace as TraceInput, idempotencyKey) as Promise<ApiResponse<unknown>> as Promise<ApiResponse<T>>;
  }

  /**
   * GET /v1/ci/runs/{run_id} with the run's cells completed: the API serves them as CiRunCell (no `comparison`,
   * `before`), the CLI's reports read CiCell; `flaky` is recomputed for answers of older services that lacked it
   * (functions/core/runs/cells.ts isFlaky). A single CI run has no baseline to compare with.
   */
  async getCiRunReport(runId: string): Promise<CiRunReport> {
    const run: Omit<CiRunView, 'cells'> & { cells?: CiRunView['cells'] } = await this.getCiRun(runId);
    return { ...run, cells: run.cells?.map((c) => ({ ...c, flaky: c.passed > 0 && c.passed < c.total, comparison: null, before: null })) };
  }
}
