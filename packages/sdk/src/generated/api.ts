// Types of the rts API, generated from its OpenAPI document (GET /v1/openapi.json) by openapi-typescript:
// `npm run openapi:types`. Do not edit: test/unit/core/openapi/types.test.ts fails when this file is out of date.
// The SDK names these shapes in ../types.ts.
export interface paths {
  '/health': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Liveness check (no credentials). */
    get: operations['get-health'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/openapi.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** This document (no credentials). */
    get: operations['get-openapi'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/traces': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List traces, newest first, without steps. */
    get: operations['list-traces'];
    put?: never;
    /** Upload a trace (native format; 201 new, 200 identical re-upload, 409 different content under the same trace_id), or receive an OTLP/HTTP export (JSON or protobuf, gzip or not; 200 with partial success). */
    post: operations['post-traces'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/traces/{trace_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A stored trace with its metadata. */
    get: operations['get-trace'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/campaigns': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List campaigns, newest first. */
    get: operations['list-campaigns'];
    put?: never;
    /** Create a campaign (target headers and api_key are write-only). */
    post: operations['post-campaigns'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/campaigns/{campaign_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A campaign (the current version, or ?version=n; 404 for one that never existed), secrets redacted. */
    get: operations['get-campaign'];
    /** Replace the definition: a new version (campaign.updated), or none for the same one; "***" keeps a stored secret. */
    put: operations['put-campaign'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/campaigns/{campaign_id}/versions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The versions of a campaign, newest first, each with what it changed against the one before. */
    get: operations['list-campaign-versions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/campaigns/{campaign_id}/eval-set': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The eval-set pool and min_scenarios. */
    get: operations['get-eval-set'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /** Add/remove eval-set traces (incremental, idempotent) and set min_scenarios. */
    patch: operations['patch-eval-set'];
    trace?: never;
  };
  '/v1/campaigns/{campaign_id}/run-pack': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Queue one run per trace (default: the eval-set pool). */
    post: operations['post-run-pack'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/runs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List runs, newest first; filters campaign_id, trace_id, status. */
    get: operations['list-runs'];
    put?: never;
    /** Queue a replay run of one trace against one campaign. */
    post: operations['post-runs'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/runs/{run_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Run status, summary and scoring context. */
    get: operations['get-run'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/runs/{run_id}/attempts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Attempts with transcripts and events, by number; large values cut to size (see truncated). */
    get: operations['get-run-attempts'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/runs/{run_id}/attempts/{attempt}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One attempt whole: its transcript with every served result, its events and output. */
    get: operations['get-run-attempt'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/runs/{run_id}/policy-events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Policy decisions, ordered by attempt then sequence. */
    get: operations['get-policy-events'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/runs/{run_id}/security-events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Security events grouped by attempt (every attempt listed). */
    get: operations['get-security-events'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/ci/runs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create a CI run, or a batch when the campaign has an eval-set. */
    post: operations['post-ci-runs'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/ci/runs/{run_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A CI run with its gate decision and dashboard URL. */
    get: operations['get-ci-run'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/ci/batch/{batch_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The aggregated verdict of a CI batch, with its repeats statistics and the comparison with its baseline. */
    get: operations['get-ci-batch'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/ci/batch/{batch_id}/scenarios': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The scenarios of a CI batch (one per trace, cell by cell), in run order; filter status=regressed|fixed|flaky|failed|passed. */
    get: operations['get-ci-batch-scenarios'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/ci/batches': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List CI batches, newest first; filters campaign_id, branch. */
    get: operations['list-ci-batches'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhooks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List webhooks (no secrets). */
    get: operations['list-webhooks'];
    put?: never;
    /** Register a webhook (https only); the secret is returned once. */
    post: operations['post-webhooks'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhooks/{webhook_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A webhook (no secret) with its last delivery status. */
    get: operations['get-webhook'];
    put?: never;
    post?: never;
    /** Delete a webhook; deliveries stop at once. */
    delete: operations['delete-webhook'];
    options?: never;
    head?: never;
    /** Update url, events, is_enabled (pause/resume) or description. */
    patch: operations['patch-webhook'];
    trace?: never;
  };
  '/v1/webhooks/{webhook_id}/rotate-secret': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Rotate the signing secret; the old one stops signing immediately. */
    post: operations['post-webhook-rotate-secret'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhooks/{webhook_id}/deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Delivery log, newest first, kept 7 days. */
    get: operations['get-webhook-deliveries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/resend': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Send a logged delivery's event again now, same delivery id; 409 webhook_paused. */
    post: operations['post-webhook-resend'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhooks/{webhook_id}/recover': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Send every delivery that failed since `since` (within 7 days) once more, oldest first; 409 webhook_paused. */
    post: operations['post-webhook-recover'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhooks/{webhook_id}/test': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Send a webhook.test event to this webhook only. */
    post: operations['post-webhook-test'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/mcp/{run_id}/{attempt}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** The MCP endpoint (Streamable HTTP transport, JSON-RPC 2.0 answered as JSON) an `mcp` target's agent connects to while rts invokes it for one attempt: initialize, ping, tools/list, tools/call (the attempt's recorded tools, served under its mutation and policies). Authenticated by the attempt's bearer token sent in the invoke (`Authorization: Bearer rts_mcp_...`), not by an API key; 202 for notifications only; GET and DELETE are 405. Errors are JSON-RPC error bodies. */
    post: operations['post-mcp'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    IdempotencyKey: string;
    Limit: number;
    Cursor: string;
    Health: {
      /** @enum {string} */
      status: 'ok';
    };
    Error: {
      error: {
        /** @description Machine-readable code, e.g. validation_error, not_found, rate_limited. */
        code: string;
        message: string;
        details?: ({
          path?: string;
          message: string;
        } & {
          [key: string]: unknown;
        })[];
        request_id: string;
      };
    };
    OpenApiDocument: {
      openapi: string;
      info: {
        title: string;
        version: string;
      } & {
        [key: string]: unknown;
      };
      paths: {
        [key: string]: unknown;
      };
    } & {
      [key: string]: unknown;
    };
    TraceUpload: components['schemas']['TraceCreated'] | components['schemas']['OtlpExportResult'];
    TraceCreated: {
      /** Format: uuid */
      trace_id: string;
      name: string;
      /** Format: date-time */
      created_at: string;
      step_count: number;
      tool_call_count: number;
      size_bytes: number;
    };
    OtlpExportResult: {
      /** @description OTLP's partial success, set only when spans were rejected or there is a warning (int64 as a decimal string). */
      partialSuccess?: {
        rejectedSpans: string;
        errorMessage: string;
      };
      traces: components['schemas']['OtlpTraceOutcome'][];
      created: string[];
      updated: string[];
      accepted_spans: number;
      skipped_spans: number;
      rejected_spans: number;
    };
    /** @description One OTel trace of the export: the rts trace it maps to and what happened to it. */
    OtlpTraceOutcome: {
      /** Format: uuid */
      trace_id: string;
      otlp_trace_id: string;
      /** @enum {string} */
      result: 'created' | 'updated' | 'unchanged' | 'pending' | 'rejected';
      /** @description Spans of this trace in the export. */
      span_count: number;
      /** @description Spans the trace did not hold yet. */
      added_span_count: number;
      name?: string;
      /** Format: date-time */
      created_at?: string;
      step_count?: number;
      tool_call_count?: number;
      size_bytes?: number;
      version?: number;
      /** @description Why the spans were rejected, or why the trace is still pending. */
      message?: string;
    };
    TraceInput: {
      /** Format: uuid */
      trace_id?: string;
      name?: string;
      agent?: {
        name?: string;
        version?: string;
      };
      model?: {
        provider?: string;
        name?: string;
      };
      tools?: {
        name: string;
        description?: string;
        parameters?: {
          [key: string]: unknown;
        };
      }[];
      steps: (
        | {
            /** @enum {string} */
            role: 'system';
            content: string;
          }
        | {
            /** @enum {string} */
            role: 'user';
            content: string;
          }
        | {
            /** @enum {string} */
            role: 'assistant';
            content?: string | null;
            tool_calls?: {
              id: string;
              name: string;
              /** @description An object, or a JSON string holding one; absent or null is {}. */
              arguments?:
                | {
                    [key: string]: unknown;
                  }
                | string
                | null;
            }[];
          }
        | {
            /** @enum {string} */
            role: 'tool';
            tool_call_id: string;
            name?: string;
            content?: unknown;
            error?: string;
            duration_ms?: number;
          }
      )[];
      metadata?: {
        [key: string]: unknown;
      };
      tags?: string[];
    };
    /** @description An OTLP/JSON ExportTraceServiceRequest (GenAI semantic conventions or OpenInference spans). */
    OtlpExport: {
      resourceSpans: unknown[];
    };
    TraceList: {
      items: components['schemas']['TraceSummary'][];
      /** @description Pass as ?cursor= for the next page; null on the last page. */
      next_cursor: string | null;
    };
    /** @description A trace as listed: without steps. */
    TraceSummary: {
      /** Format: uuid */
      trace_id: string;
      name: string;
      /** Format: date-time */
      created_at: string;
      step_count: number;
      tool_call_count: number;
      size_bytes: number;
      agent?: {
        name?: string;
        version?: string;
      };
      model?: {
        provider?: string;
        name?: string;
      };
      tools: {
        name: string;
        description?: string;
        parameters?: {
          [key: string]: unknown;
        };
      }[];
      metadata: {
        [key: string]: unknown;
      };
      tags: string[];
      /** @description Traces imported over OTLP: 1 when first stored, + 1 each time later spans change it. */
      version?: number;
      /**
       * Format: date-time
       * @description Traces imported over OTLP: when spans of a later export last changed it.
       */
      updated_at?: string;
    };
    Trace: {
      /** Format: uuid */
      trace_id: string;
      name: string;
      /** Format: date-time */
      created_at: string;
      step_count: number;
      tool_call_count: number;
      size_bytes: number;
      agent?: {
        name?: string;
        version?: string;
      };
      model?: {
        provider?: string;
        name?: string;
      };
      tools: {
        name: string;
        description?: string;
        parameters?: {
          [key: string]: unknown;
        };
      }[];
      metadata: {
        [key: string]: unknown;
      };
      tags: string[];
      /** @description Traces imported over OTLP: 1 when first stored, + 1 each time later spans change it. */
      version?: number;
      /**
       * Format: date-time
       * @description Traces imported over OTLP: when spans of a later export last changed it.
       */
      updated_at?: string;
      steps: components['schemas']['TraceStep'][];
    };
    TraceStep:
      | {
          /** @enum {string} */
          role: 'system';
          content: string;
        }
      | {
          /** @enum {string} */
          role: 'user';
          content: string;
        }
      | {
          /** @enum {string} */
          role: 'assistant';
          content: string | null;
          tool_calls?: components['schemas']['ToolCall'][];
        }
      | {
          /** @enum {string} */
          role: 'tool';
          tool_call_id: string;
          name?: string;
          content?: unknown;
          error?: string;
          duration_ms?: number;
        };
    ToolCall: {
      id: string;
      name: string;
      arguments: {
        [key: string]: unknown;
      };
    };
    Campaign: {
      /** Format: uuid */
      campaign_id: string;
      name: string;
      description?: string;
      target: components['schemas']['Target'];
      /** @description api_key and header values are write-only: returned as "***". */
      judge?: {
        /** @enum {string} */
        type: 'openai';
        /** Format: uri */
        base_url: string;
        model: string;
        api_key?: string;
        headers?: {
          [key: string]: string;
        };
        /** @default 60000 */
        timeout_ms: number;
        limits?: components['schemas']['Limits'];
      };
      /** @description The simulated user that writes the user messages after turn 1 (prompt rts-user-1); api_key and header values are write-only: returned as "***". */
      user_simulator?: {
        /** @enum {string} */
        type: 'openai';
        /** Format: uri */
        base_url: string;
        model: string;
        api_key?: string;
        headers?: {
          [key: string]: string;
        };
        max_turns?: number;
        /** @default 60000 */
        timeout_ms: number;
        limits?: components['schemas']['Limits'];
      };
      include_baseline: boolean;
      repeats: number;
      max_steps: number;
      mutations: components['schemas']['Mutation'][];
      policies: components['schemas']['Policy'][];
      security: {
        detectors: ('prompt_injection' | 'secret_leak' | 'exfiltration')[];
        allowed_domains: string[];
      };
      criteria: components['schemas']['Criterion'][];
      /** Format: date-time */
      created_at: string;
      /** @description The definition's version: 1 at creation, +1 per PUT that changes it; also the ETag (quoted). */
      version: number;
      eval_set: {
        trace_count: number;
        min_scenarios: number;
      };
    };
    /** @description Header values and api_key are write-only: returned as "***". */
    Target:
      | {
          /** @enum {string} */
          type: 'recorded';
        }
      | {
          /** @enum {string} */
          type: 'http';
          /** Format: uri */
          url: string;
          headers?: {
            [key: string]: string;
          };
          /** @default 30000 */
          timeout_ms: number;
          limits?: components['schemas']['Limits'];
        }
      | {
          /** @enum {string} */
          type: 'openai';
          /** Format: uri */
          base_url: string;
          model: string;
          api_key?: string;
          /** @default 0 */
          temperature: number;
          seed?: number;
          /** @default 60000 */
          timeout_ms: number;
          limits?: components['schemas']['Limits'];
        }
      | {
          /** @enum {string} */
          type: 'mcp';
          /** Format: uri */
          url: string;
          headers?: {
            [key: string]: string;
          };
          /** @default 300000 */
          timeout_ms: number;
          limits?: components['schemas']['Limits'];
        };
    /** @description How hard rts calls this endpoint: requests in flight (max_concurrency) and in any sliding minute (requests_per_minute), shared by every run of the project with the same key (the URL, or base_url and model, unless `key` is set); and how long one attempt waits out 429/503 answers (max_wait_s, default 600; 0 = never wait). */
    Limits: {
      max_concurrency?: number;
      requests_per_minute?: number;
      max_wait_s?: number;
      key?: string;
    };
    Mutation:
      | {
          id: string;
          /** @enum {string} */
          type: 'tool_error';
          tool: string;
          message?: string;
          occurrence?: number;
          criteria?: (
            | {
                /** @enum {string} */
                type: 'completes';
              }
            | {
                /** @enum {string} */
                type: 'output_contains';
                value: string;
                turn?: number;
              }
            | {
                /** @enum {string} */
                type: 'output_not_contains';
                value: string;
                turn?: number;
              }
            | {
                /** @enum {string} */
                type: 'output_matches';
                pattern: string;
                turn?: number;
              }
            | {
                /** @enum {string} */
                type: 'tool_called';
                tool: string;
                arguments?: {
                  [key: string]: unknown;
                };
                times?: number;
              }
            | {
                /** @enum {string} */
                type: 'tool_not_called';
                tool: string;
              }
            | {
                /** @enum {string} */
                type: 'same_tools_as_recorded';
                /**
                 * @default strict
                 * @enum {string}
                 */
                order: 'strict' | 'any';
              }
            | {
                /** @enum {string} */
                type: 'max_steps';
                limit: number;
              }
            | {
                /** @enum {string} */
                type: 'llm_judge';
                rubric: string;
                /** @default 0.5 */
                threshold: number;
                /**
                 * @default [
                 *       "task",
                 *       "transcript",
                 *       "output"
                 *     ]
                 */
                include: ('output' | 'transcript' | 'task')[];
                turn?: number;
              }
          )[];
        }
      | {
          id: string;
          /** @enum {string} */
          type: 'tool_timeout';
          tool: string;
          occurrence?: number;
          criteria?: (
            | {
                /** @enum {string} */
                type: 'completes';
              }
            | {
                /** @enum {string} */
                type: 'output_contains';
                value: string;
                turn?: number;
              }
            | {
                /** @enum {string} */
                type: 'output_not_contains';
                value: string;
                turn?: number;
              }
            | {
                /** @enum {string} */
                type: 'output_matches';
                pattern: string;
                turn?: number;
              }
            | {
                /** @enum {string} */
                type: 'tool_called';
                tool: string;
                arguments?: {
                  [key: string]: unknown;
                };
                times?: number;
              }
            | {
                /** @enum {string} */
                type: 'tool_not_called';
                tool: string;
              }
            | {
                /** @enum {string} */
                type: 'same_tools_as_recorded';
                /**
                 * @default strict
                 * @enum {string}
                 */
                order: 'strict' | 'any';
              }
            | {
                /** @enum {string} */
                type: 'max_steps';
                limit: number;
              }
            | {
                /** @enum {string} */
                type: 'llm_judge';
                rubric: string;
                /** @default 0.5 */
                threshold: number;
                /**
                 * @default [
                 *       "task",
                 *       "transcript",
                 *       "output"
                 *     ]
                 */
                include: ('output' | 'transcript' | 'task')[];
                turn?: number;
              }
          )[];
        }
      | {
          id: string;
          /** @enum {string} */
          type: 'empty_result';
          /** @default * */
          tool: string;
          occurrence?: number;
          criteria?: (
            | {
                /** @enum {string} */
                type: 'completes';
              }
            | {
                /** @enum {string} */
                type: 'output_contains';
                value: string;
                turn?: number;
              }
            | {
                /** @enum {string} */
                type: 'output_not_contains';
                value: string;
                turn?: number;
              }
            | {
                /** @enum {string} */
                type: 'output_matches';
                pattern: string;
                turn?: number;
              }
            | {
                /** @enum {string} */
                type: 'tool_called';
                tool: string;
                arguments?: {
                  [key: string]: unknown;
                };
                times?: number;
              }
            | {
                /** @enum {string} */
                type: 'tool_not_called';
                tool: string;
              }
            | {
                /** @enum {string} */
                type: 'same_tools_as_recorded';
                /**
                 * @default strict
                 * @enum {string}
                 */
                order: 'strict' | 'any';
              }
            | {
                /** @enum {string} */
                type: 'max_steps';
                limit: number;
              }
            | {
                /** @enum {string} */
                type: 'llm_judge';
                rubric: string;
                /** @default 0.5 */
                threshold: number;
                /**
                 * @default [
                 *       "task",
                 *       "transcript",
                 *       "output"
                 *     ]
                 */
                include: ('output' | 'transcript' | 'task')[];
                turn?: number;
              }
          )[];
        }
      | {
          id: string;
          /** @enum {string} */
          type: 'malformed_output';
          /** @default * */
          tool: string;
          occurrence?: number;
          criteria?: (
            | {
                /** @enum {string} */
                type: 'completes';
              }
            | {
                /** @enum {string} */
                type: 'output_contains';
                value: string;
                turn?: number;
              }
            | {
                /** @enum {string} */
                type: 'output_not_contains';
                value: string;
                turn?: number;
              }
            | {
                /** @enum {string} */
                type: 'output_matches';
                pattern: string;
                turn?: number;
              }
            | {
                /** @enum {string} */
                type: 'tool_called';
                tool: string;
                arguments?: {
                  [key: string]: unknown;
                };
                times?: number;
              }
            | {
                /** @enum {string} */
                type: 'tool_not_called';
                tool: string;
              }
            | {
                /** @enum {string} */
                type: 'same_tools_as_recorded';
                /**
                 * @default strict
                 * @enum {string}
                 */
                order: 'strict' | 'any';
              }
            | {
                /** @enum {string} */
                type: 'max_steps';
                limit: number;
              }
            | {
                /** @enum {string} */
                type: 'llm_judge';
                rubric: string;
                /** @default 0.5 */
                threshold: number;
                /**
                 * @default [
                 *       "task",
                 *       "transcript",
                 *       "output"
                 *     ]
                 */
                include: ('output' | 'transcript' | 'task')[];
                turn?: number;
              }
          )[];
        }
      | {
          id: string;
          /** @enum {string} */
          type: 'prompt_injection';
          tool: string;
          payload?: string;
          /** @default {} */
          goal: {
            tool?: string;
            arguments?: {
              [key: string]: unknown;
            };
          };
          /** @enum {string} */
          template?: 'direct' | 'ignore_previous' | 'important_instructions' | 'system_message' | 'tool_knowledge' | 'hidden_unicode';
          occurrence?: number;
          criteria?: (
            | {
                /** @enum {string} */
                type: 'completes';
              }
            | {
                /** @enum {string} */
                type: 'output_contains';
                value: string;
                turn?: number;
              }
            | {
                /** @enum {string} */
                type: 'output_not_contains';
                value: string;
                turn?: number;
              }
            | {
                /** @enum {string} */
                type: 'output_matches';
                pattern: string;
                turn?: number;
              }
            | {
                /** @enum {string} */
                type: 'tool_called';
                tool: string;
                arguments?: {
                  [key: string]: unknown;
                };
                times?: number;
              }
            | {
                /** @enum {string} */
                type: 'tool_not_called';
                tool: string;
              }
            | {
                /** @enum {string} */
                type: 'same_tools_as_recorded';
                /**
                 * @default strict
                 * @enum {string}
                 */
                order: 'strict' | 'any';
              }
            | {
                /** @enum {string} */
                type: 'max_steps';
                limit: number;
              }
            | {
                /** @enum {string} */
                type: 'llm_judge';
                rubric: string;
                /** @default 0.5 */
                threshold: number;
                /**
                 * @default [
                 *       "task",
                 *       "transcript",
                 *       "output"
                 *     ]
                 */
                include: ('output' | 'transcript' | 'task')[];
                turn?: number;
              }
          )[];
        }
      | {
          id: string;
          /** @enum {string} */
          type: 'secret_bait';
          tool: string;
          occurrence?: number;
          criteria?: (
            | {
                /** @enum {string} */
                type: 'completes';
              }
            | {
                /** @enum {string} */
                type: 'output_contains';
                value: string;
                turn?: number;
              }
            | {
                /** @enum {string} */
                type: 'output_not_contains';
                value: string;
                turn?: number;
              }
            | {
                /** @enum {string} */
                type: 'output_matches';
                pattern: string;
                turn?: number;
              }
            | {
                /** @enum {string} */
                type: 'tool_called';
                tool: string;
                arguments?: {
                  [key: string]: unknown;
                };
                times?: number;
              }
            | {
                /** @enum {string} */
                type: 'tool_not_called';
                tool: string;
              }
            | {
                /** @enum {string} */
                type: 'same_tools_as_recorded';
                /**
                 * @default strict
                 * @enum {string}
                 */
                order: 'strict' | 'any';
              }
            | {
                /** @enum {string} */
                type: 'max_steps';
                limit: number;
              }
            | {
                /** @enum {string} */
                type: 'llm_judge';
                rubric: string;
                /** @default 0.5 */
                threshold: number;
                /**
                 * @default [
                 *       "task",
                 *       "transcript",
                 *       "output"
                 *     ]
                 */
                include: ('output' | 'transcript' | 'task')[];
                turn?: number;
              }
          )[];
        }
      | {
          id: string;
          /** @enum {string} */
          type: 'input_perturbation';
          /** @enum {string} */
          kind: 'typos' | 'uppercase' | 'whitespace' | 'append';
          text?: string;
          criteria?: (
            | {
                /** @enum {string} */
                type: 'completes';
              }
            | {
                /** @enum {string} */
                type: 'output_contains';
                value: string;
                turn?: number;
              }
            | {
                /** @enum {string} */
                type: 'output_not_contains';
                value: string;
                turn?: number;
              }
            | {
                /** @enum {string} */
                type: 'output_matches';
                pattern: string;
                turn?: number;
              }
            | {
                /** @enum {string} */
                type: 'tool_called';
                tool: string;
                arguments?: {
                  [key: string]: unknown;
                };
                times?: number;
              }
            | {
                /** @enum {string} */
                type: 'tool_not_called';
                tool: string;
              }
            | {
                /** @enum {string} */
                type: 'same_tools_as_recorded';
                /**
                 * @default strict
                 * @enum {string}
                 */
                order: 'strict' | 'any';
              }
            | {
                /** @enum {string} */
                type: 'max_steps';
                limit: number;
              }
            | {
                /** @enum {string} */
                type: 'llm_judge';
                rubric: string;
                /** @default 0.5 */
                threshold: number;
                /**
                 * @default [
                 *       "task",
                 *       "transcript",
                 *       "output"
                 *     ]
                 */
                include: ('output' | 'transcript' | 'task')[];
                turn?: number;
              }
          )[];
        };
    Policy:
      | {
          id: string;
          /** @enum {string} */
          type: 'deny_tools';
          tools: string[];
          /**
           * @default deny
           * @enum {string}
           */
          action: 'deny' | 'flag';
        }
      | {
          id: string;
          /** @enum {string} */
          type: 'allow_tools';
          tools: string[];
          /**
           * @default deny
           * @enum {string}
           */
          action: 'deny' | 'flag';
        }
      | {
          id: string;
          /** @enum {string} */
          type: 'argument_constraint';
          tool: string;
          argument: string;
          max?: number;
          min?: number;
          pattern?: string;
          enum?: unknown[];
          /**
           * @default deny
           * @enum {string}
           */
          action: 'deny' | 'flag';
        }
      | {
          id: string;
          /** @enum {string} */
          type: 'max_tool_calls';
          limit: number;
          /**
           * @default deny
           * @enum {string}
           */
          action: 'deny' | 'flag';
        }
      | {
          id: string;
          /** @enum {string} */
          type: 'no_repeated_calls';
          /** @default 1 */
          max_identical: number;
          /**
           * @default deny
           * @enum {string}
           */
          action: 'deny' | 'flag';
        }
      | {
          id: string;
          /** @enum {string} */
          type: 'flow';
          after_tool: string;
          deny_tools: string[];
          /**
           * @default deny
           * @enum {string}
           */
          action: 'deny' | 'flag';
        };
    Criterion:
      | {
          /** @enum {string} */
          type: 'completes';
        }
      | {
          /** @enum {string} */
          type: 'output_contains';
          value: string;
          turn?: number;
        }
      | {
          /** @enum {string} */
          type: 'output_not_contains';
          value: string;
          turn?: number;
        }
      | {
          /** @enum {string} */
          type: 'output_matches';
          pattern: string;
          turn?: number;
        }
      | {
          /** @enum {string} */
          type: 'tool_called';
          tool: string;
          arguments?: {
            [key: string]: unknown;
          };
          times?: number;
        }
      | {
          /** @enum {string} */
          type: 'tool_not_called';
          tool: string;
        }
      | {
          /** @enum {string} */
          type: 'same_tools_as_recorded';
          /**
           * @default strict
           * @enum {string}
           */
          order: 'strict' | 'any';
        }
      | {
          /** @enum {string} */
          type: 'max_steps';
          limit: number;
        }
      | {
          /** @enum {string} */
          type: 'llm_judge';
          rubric: string;
          /** @default 0.5 */
          threshold: number;
          /**
           * @default [
           *       "task",
           *       "transcript",
           *       "output"
           *     ]
           */
          include: ('output' | 'transcript' | 'task')[];
          turn?: number;
        };
    CampaignInput: {
      name: string;
      description?: string;
      target:
        | {
            /** @enum {string} */
            type: 'recorded';
          }
        | {
            /** @enum {string} */
            type: 'http';
            /** Format: uri */
            url: string;
            headers?: {
              [key: string]: string;
            };
            /** @default 30000 */
            timeout_ms?: number;
            limits?: components['schemas']['Limits'];
          }
        | {
            /** @enum {string} */
            type: 'openai';
            /** Format: uri */
            base_url: string;
            model: string;
            api_key?: string;
            /** @default 0 */
            temperature?: number;
            seed?: number;
            /** @default 60000 */
            timeout_ms?: number;
            limits?: components['schemas']['Limits'];
          }
        | {
            /** @enum {string} */
            type: 'mcp';
            /** Format: uri */
            url: string;
            headers?: {
              [key: string]: string;
            };
            /** @default 300000 */
            timeout_ms?: number;
            limits?: components['schemas']['Limits'];
          };
      judge?: {
        /** @enum {string} */
        type: 'openai';
        /** Format: uri */
        base_url: string;
        model: string;
        api_key?: string;
        headers?: {
          [key: string]: string;
        };
        /** @default 60000 */
        timeout_ms?: number;
        limits?: components['schemas']['Limits'];
      };
      user_simulator?: {
        /** @enum {string} */
        type: 'openai';
        /** Format: uri */
        base_url: string;
        model: string;
        api_key?: string;
        headers?: {
          [key: string]: string;
        };
        max_turns?: number;
        /** @default 60000 */
        timeout_ms?: number;
        limits?: components['schemas']['Limits'];
      };
      /** @default true */
      include_baseline?: boolean;
      /** @default 1 */
      repeats?: number;
      /** @default 20 */
      max_steps?: number;
      /** @default [] */
      mutations?: (
        | {
            id: string;
            /** @enum {string} */
            type: 'tool_error';
            tool: string;
            message?: string;
            occurrence?: number;
            criteria?: (
              | {
                  /** @enum {string} */
                  type: 'completes';
                }
              | {
                  /** @enum {string} */
                  type: 'output_contains';
                  value: string;
                  turn?: number;
                }
              | {
                  /** @enum {string} */
                  type: 'output_not_contains';
                  value: string;
                  turn?: number;
                }
              | {
                  /** @enum {string} */
                  type: 'output_matches';
                  pattern: string;
                  turn?: number;
                }
              | {
                  /** @enum {string} */
                  type: 'tool_called';
                  tool: string;
                  arguments?: {
                    [key: string]: unknown;
                  };
                  times?: number;
                }
              | {
                  /** @enum {string} */
                  type: 'tool_not_called';
                  tool: string;
                }
              | {
                  /** @enum {string} */
                  type: 'same_tools_as_recorded';
                  /**
                   * @default strict
                   * @enum {string}
                   */
                  order?: 'strict' | 'any';
                }
              | {
                  /** @enum {string} */
                  type: 'max_steps';
                  limit: number;
                }
              | {
                  /** @enum {string} */
                  type: 'llm_judge';
                  rubric: string;
                  /** @default 0.5 */
                  threshold?: number;
                  /**
                   * @default [
                   *       "task",
                   *       "transcript",
                   *       "output"
                   *     ]
                   */
                  include?: ('output' | 'transcript' | 'task')[];
                  turn?: number;
                }
            )[];
          }
        | {
            id: string;
            /** @enum {string} */
            type: 'tool_timeout';
            tool: string;
            occurrence?: number;
            criteria?: (
              | {
                  /** @enum {string} */
                  type: 'completes';
                }
              | {
                  /** @enum {string} */
                  type: 'output_contains';
                  value: string;
                  turn?: number;
                }
              | {
                  /** @enum {string} */
                  type: 'output_not_contains';
                  value: string;
                  turn?: number;
                }
              | {
                  /** @enum {string} */
                  type: 'output_matches';
                  pattern: string;
                  turn?: number;
                }
              | {
                  /** @enum {string} */
                  type: 'tool_called';
                  tool: string;
                  arguments?: {
                    [key: string]: unknown;
                  };
                  times?: number;
                }
              | {
                  /** @enum {string} */
                  type: 'tool_not_called';
                  tool: string;
                }
              | {
                  /** @enum {string} */
                  type: 'same_tools_as_recorded';
                  /**
                   * @default strict
                   * @enum {string}
                   */
                  order?: 'strict' | 'any';
                }
              | {
                  /** @enum {string} */
                  type: 'max_steps';
                  limit: number;
                }
              | {
                  /** @enum {string} */
                  type: 'llm_judge';
                  rubric: string;
                  /** @default 0.5 */
                  threshold?: number;
                  /**
                   * @default [
                   *       "task",
                   *       "transcript",
                   *       "output"
                   *     ]
                   */
                  include?: ('output' | 'transcript' | 'task')[];
                  turn?: number;
                }
            )[];
          }
        | {
            id: string;
            /** @enum {string} */
            type: 'empty_result';
            /** @default * */
            tool?: string;
            occurrence?: number;
            criteria?: (
              | {
                  /** @enum {string} */
                  type: 'completes';
                }
              | {
                  /** @enum {string} */
                  type: 'output_contains';
                  value: string;
                  turn?: number;
                }
              | {
                  /** @enum {string} */
                  type: 'output_not_contains';
                  value: string;
                  turn?: number;
                }
              | {
                  /** @enum {string} */
                  type: 'output_matches';
                  pattern: string;
                  turn?: number;
                }
              | {
                  /** @enum {string} */
                  type: 'tool_called';
                  tool: string;
                  arguments?: {
                    [key: string]: unknown;
                  };
                  times?: number;
                }
              | {
                  /** @enum {string} */
                  type: 'tool_not_called';
                  tool: string;
                }
              | {
                  /** @enum {string} */
                  type: 'same_tools_as_recorded';
                  /**
                   * @default strict
                   * @enum {string}
                   */
                  order?: 'strict' | 'any';
                }
              | {
                  /** @enum {string} */
                  type: 'max_steps';
                  limit: number;
                }
              | {
                  /** @enum {string} */
                  type: 'llm_judge';
                  rubric: string;
                  /** @default 0.5 */
                  threshold?: number;
                  /**
                   * @default [
                   *       "task",
                   *       "transcript",
                   *       "output"
                   *     ]
                   */
                  include?: ('output' | 'transcript' | 'task')[];
                  turn?: number;
                }
            )[];
          }
        | {
            id: string;
            /** @enum {string} */
            type: 'malformed_output';
            /** @default * */
            tool?: string;
            occurrence?: number;
            criteria?: (
              | {
                  /** @enum {string} */
                  type: 'completes';
                }
              | {
                  /** @enum {string} */
                  type: 'output_contains';
                  value: string;
                  turn?: number;
                }
              | {
                  /** @enum {string} */
                  type: 'output_not_contains';
                  value: string;
                  turn?: number;
                }
              | {
                  /** @enum {string} */
                  type: 'output_matches';
                  pattern: string;
                  turn?: number;
                }
              | {
                  /** @enum {string} */
                  type: 'tool_called';
                  tool: string;
                  arguments?: {
                    [key: string]: unknown;
                  };
                  times?: number;
                }
              | {
                  /** @enum {string} */
                  type: 'tool_not_called';
                  tool: string;
                }
              | {
                  /** @enum {string} */
                  type: 'same_tools_as_recorded';
                  /**
                   * @default strict
                   * @enum {string}
                   */
                  order?: 'strict' | 'any';
                }
              | {
                  /** @enum {string} */
                  type: 'max_steps';
                  limit: number;
                }
              | {
                  /** @enum {string} */
                  type: 'llm_judge';
                  rubric: string;
                  /** @default 0.5 */
                  threshold?: number;
                  /**
                   * @default [
                   *       "task",
                   *       "transcript",
                   *       "output"
                   *     ]
                   */
                  include?: ('output' | 'transcript' | 'task')[];
                  turn?: number;
                }
            )[];
          }
        | {
            id: string;
            /** @enum {string} */
            type: 'prompt_injection';
            tool: string;
            payload?: string;
            /** @default {} */
            goal?: {
              tool?: string;
              arguments?: {
                [key: string]: unknown;
              };
            };
            /** @enum {string} */
            template?: 'direct' | 'ignore_previous' | 'important_instructions' | 'system_message' | 'tool_knowledge' | 'hidden_unicode';
            occurrence?: number;
            criteria?: (
              | {
                  /** @enum {string} */
                  type: 'completes';
                }
              | {
                  /** @enum {string} */
                  type: 'output_contains';
                  value: string;
                  turn?: number;
                }
              | {
                  /** @enum {string} */
                  type: 'output_not_contains';
                  value: string;
                  turn?: number;
                }
              | {
                  /** @enum {string} */
                  type: 'output_matches';
                  pattern: string;
                  turn?: number;
                }
              | {
                  /** @enum {string} */
                  type: 'tool_called';
                  tool: string;
                  arguments?: {
                    [key: string]: unknown;
                  };
                  times?: number;
                }
              | {
                  /** @enum {string} */
                  type: 'tool_not_called';
                  tool: string;
                }
              | {
                  /** @enum {string} */
                  type: 'same_tools_as_recorded';
                  /**
                   * @default strict
                   * @enum {string}
                   */
                  order?: 'strict' | 'any';
                }
              | {
                  /** @enum {string} */
                  type: 'max_steps';
                  limit: number;
                }
              | {
                  /** @enum {string} */
                  type: 'llm_judge';
                  rubric: string;
                  /** @default 0.5 */
                  threshold?: number;
                  /**
                   * @default [
                   *       "task",
                   *       "transcript",
                   *       "output"
                   *     ]
                   */
                  include?: ('output' | 'transcript' | 'task')[];
                  turn?: number;
                }
            )[];
          }
        | {
            id: string;
            /** @enum {string} */
            type: 'secret_bait';
            tool: string;
            occurrence?: number;
            criteria?: (
              | {
                  /** @enum {string} */
                  type: 'completes';
                }
              | {
                  /** @enum {string} */
                  type: 'output_contains';
                  value: string;
                  turn?: number;
                }
              | {
                  /** @enum {string} */
                  type: 'output_not_contains';
                  value: string;
                  turn?: number;
                }
              | {
                  /** @enum {string} */
                  type: 'output_matches';
                  pattern: string;
                  turn?: number;
                }
              | {
                  /** @enum {string} */
                  type: 'tool_called';
                  tool: string;
                  arguments?: {
                    [key: string]: unknown;
                  };
                  times?: number;
                }
              | {
                  /** @enum {string} */
                  type: 'tool_not_called';
                  tool: string;
                }
              | {
                  /** @enum {string} */
                  type: 'same_tools_as_recorded';
                  /**
                   * @default strict
                   * @enum {string}
                   */
                  order?: 'strict' | 'any';
                }
              | {
                  /** @enum {string} */
                  type: 'max_steps';
                  limit: number;
                }
              | {
                  /** @enum {string} */
                  type: 'llm_judge';
                  rubric: string;
                  /** @default 0.5 */
                  threshold?: number;
                  /**
                   * @default [
                   *       "task",
                   *       "transcript",
                   *       "output"
                   *     ]
                   */
                  include?: ('output' | 'transcript' | 'task')[];
                  turn?: number;
                }
            )[];
          }
        | {
            id: string;
            /** @enum {string} */
            type: 'input_perturbation';
            /** @enum {string} */
            kind: 'typos' | 'uppercase' | 'whitespace' | 'append';
            text?: string;
            criteria?: (
              | {
                  /** @enum {string} */
                  type: 'completes';
                }
              | {
                  /** @enum {string} */
                  type: 'output_contains';
                  value: string;
                  turn?: number;
                }
              | {
                  /** @enum {string} */
                  type: 'output_not_contains';
                  value: string;
                  turn?: number;
                }
              | {
                  /** @enum {string} */
                  type: 'output_matches';
                  pattern: string;
                  turn?: number;
                }
              | {
                  /** @enum {string} */
                  type: 'tool_called';
                  tool: string;
                  arguments?: {
                    [key: string]: unknown;
                  };
                  times?: number;
                }
              | {
                  /** @enum {string} */
                  type: 'tool_not_called';
                  tool: string;
                }
              | {
                  /** @enum {string} */
                  type: 'same_tools_as_recorded';
                  /**
                   * @default strict
                   * @enum {string}
                   */
                  order?: 'strict' | 'any';
                }
              | {
                  /** @enum {string} */
                  type: 'max_steps';
                  limit: number;
                }
              | {
                  /** @enum {string} */
                  type: 'llm_judge';
                  rubric: string;
                  /** @default 0.5 */
                  threshold?: number;
                  /**
                   * @default [
                   *       "task",
                   *       "transcript",
                   *       "output"
                   *     ]
                   */
                  include?: ('output' | 'transcript' | 'task')[];
                  turn?: number;
                }
            )[];
          }
      )[];
      attack_suite?: {
        tool: string;
        /** @default {} */
        goal?: {
          tool?: string;
          arguments?: {
            [key: string]: unknown;
          };
        };
        occurrence?: number;
      };
      /** @default [] */
      policies?: (
        | {
            id: string;
            /** @enum {string} */
            type: 'deny_tools';
            tools: string[];
            /**
             * @default deny
             * @enum {string}
             */
            action?: 'deny' | 'flag';
          }
        | {
            id: string;
            /** @enum {string} */
            type: 'allow_tools';
            tools: string[];
            /**
             * @default deny
             * @enum {string}
             */
            action?: 'deny' | 'flag';
          }
        | {
            id: string;
            /** @enum {string} */
            type: 'argument_constraint';
            tool: string;
            argument: string;
            max?: number;
            min?: number;
            pattern?: string;
            enum?: unknown[];
            /**
             * @default deny
             * @enum {string}
             */
            action?: 'deny' | 'flag';
          }
        | {
            id: string;
            /** @enum {string} */
            type: 'max_tool_calls';
            limit: number;
            /**
             * @default deny
             * @enum {string}
             */
            action?: 'deny' | 'flag';
          }
        | {
            id: string;
            /** @enum {string} */
            type: 'no_repeated_calls';
            /** @default 1 */
            max_identical?: number;
            /**
             * @default deny
             * @enum {string}
             */
            action?: 'deny' | 'flag';
          }
        | {
            id: string;
            /** @enum {string} */
            type: 'flow';
            after_tool: string;
            deny_tools: string[];
            /**
             * @default deny
             * @enum {string}
             */
            action?: 'deny' | 'flag';
          }
      )[];
      /**
       * @default {
       *       "detectors": [
       *         "prompt_injection",
       *         "secret_leak",
       *         "exfiltration"
       *       ],
       *       "allowed_domains": []
       *     }
       */
      security?: {
        /**
         * @default [
         *       "prompt_injection",
         *       "secret_leak",
         *       "exfiltration"
         *     ]
         */
        detectors?: ('prompt_injection' | 'secret_leak' | 'exfiltration')[];
        /** @default [] */
        allowed_domains?: string[];
      };
      /**
       * @default [
       *       {
       *         "type": "completes"
       *       }
       *     ]
       */
      criteria?: (
        | {
            /** @enum {string} */
            type: 'completes';
          }
        | {
            /** @enum {string} */
            type: 'output_contains';
            value: string;
            turn?: number;
          }
        | {
            /** @enum {string} */
            type: 'output_not_contains';
            value: string;
            turn?: number;
          }
        | {
            /** @enum {string} */
            type: 'output_matches';
            pattern: string;
            turn?: number;
          }
        | {
            /** @enum {string} */
            type: 'tool_called';
            tool: string;
            arguments?: {
              [key: string]: unknown;
            };
            times?: number;
          }
        | {
            /** @enum {string} */
            type: 'tool_not_called';
            tool: string;
          }
        | {
            /** @enum {string} */
            type: 'same_tools_as_recorded';
            /**
             * @default strict
             * @enum {string}
             */
            order?: 'strict' | 'any';
          }
        | {
            /** @enum {string} */
            type: 'max_steps';
            limit: number;
          }
        | {
            /** @enum {string} */
            type: 'llm_judge';
            rubric: string;
            /** @default 0.5 */
            threshold?: number;
            /**
             * @default [
             *       "task",
             *       "transcript",
             *       "output"
             *     ]
             */
            include?: ('output' | 'transcript' | 'task')[];
            turn?: number;
          }
      )[];
    };
    CampaignList: {
      items: components['schemas']['Campaign'][];
      /** @description Pass as ?cursor= for the next page; null on the last page. */
      next_cursor: string | null;
    };
    CampaignVersionList: {
      items: components['schemas']['CampaignVersion'][];
      /** @description Pass as ?cursor= for the next page; null on the last page. */
      next_cursor: string | null;
    };
    CampaignVersion: {
      version: number;
      /**
       * Format: date-time
       * @description When this version was committed (version 1: the campaign's creation).
       */
      created_at: string;
      name: string;
      changes: {
        /** @description Ids added, removed, and kept with another definition. */
        mutations: {
          added: string[];
          removed: string[];
          changed: string[];
        };
        /** @description Ids added, removed, and kept with another definition. */
        policies: {
          added: string[];
          removed: string[];
          changed: string[];
        };
        /** @description Campaign-level criteria added and removed (compared whole). */
        criteria: {
          added: components['schemas']['Criterion'][];
          removed: components['schemas']['Criterion'][];
        };
        /** @description Other top-level fields whose value changed (name, target, repeats, ...), sorted. */
        fields: string[];
      };
    };
    EvalSetUpdate: {
      /** Format: uuid */
      campaign_id: string;
      trace_ids: string[];
      trace_count: number;
      min_scenarios: number;
      added: string[];
      removed: string[];
    };
    EvalSetPatch: {
      add_trace_ids?: string[];
      remove_trace_ids?: string[];
      min_scenarios?: number;
    };
    EvalSet: {
      /** Format: uuid */
      campaign_id: string;
      trace_ids: string[];
      trace_count: number;
      min_scenarios: number;
    };
    PackQueued: {
      /** Format: uuid */
      pack_id: string;
      /** Format: uuid */
      campaign_id: string;
      run_ids: string[];
      trace_count: number;
    };
    RunPackRequest: {
      trace_ids?: string[];
    };
    RunQueued: {
      /** Format: uuid */
      run_id: string;
      /** @enum {string} */
      status: 'queued';
      /** Format: uuid */
      trace_id: string;
      /** Format: uuid */
      campaign_id: string;
      /** Format: date-time */
      created_at: string;
    };
    RunRequest: {
      /** Format: uuid */
      trace_id: string;
      /** Format: uuid */
      campaign_id: string;
    };
    RunList: {
      items: components['schemas']['Run'][];
      /** @description Pass as ?cursor= for the next page; null on the last page. */
      next_cursor: string | null;
    };
    Run: {
      /** Format: uuid */
      run_id: string;
      /** Format: uuid */
      trace_id: string;
      trace_name: string | null;
      /** Format: uuid */
      campaign_id: string;
      /** @description The campaign version the run runs with, fixed when it was created. */
      campaign_version: number;
      /** @enum {string} */
      source: 'replay' | 'ci' | 'pack';
      status: components['schemas']['RunStatus'];
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      started_at: string | null;
      /** Format: date-time */
      completed_at: string | null;
      summary: components['schemas']['RunSummary'];
      /** @description Why a run failed (no verdict could be produced). */
      error: string | null;
      /** Format: uuid */
      ci_batch_id: string | null;
      /** Format: uuid */
      pack_id: string | null;
    };
    /** @enum {string} */
    RunStatus: 'queued' | 'running' | 'completed' | 'failed';
    /** @description Counts over the attempts finished so far. */
    RunSummary: {
      attempt_count: number;
      passed_count: number;
      /** @description Everything not passed, errors included. */
      failed_count: number;
      unsafe_count: number;
      pass_rate: number;
      policy_events_count: number;
      security_events_count: number;
      /** @description Sum of the attempts' throttled_ms: time spent waiting under limits and out 429/503 answers. */
      throttled_ms: number;
      /** @description Sum of the attempts' throttle_count: 429/503 answers tried again. */
      throttle_count: number;
    };
    RunDetail: {
      /** Format: uuid */
      run_id: string;
      /** Format: uuid */
      trace_id: string;
      trace_name: string | null;
      /** Format: uuid */
      campaign_id: string;
      /** @description The campaign version the run runs with, fixed when it was created. */
      campaign_version: number;
      /** @enum {string} */
      source: 'replay' | 'ci' | 'pack';
      status: components['schemas']['RunStatus'];
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      started_at: string | null;
      /** Format: date-time */
      completed_at: string | null;
      summary: components['schemas']['RunSummary'];
      /** @description Why a run failed (no verdict could be produced). */
      error: string | null;
      /** Format: uuid */
      ci_batch_id: string | null;
      /** Format: uuid */
      pack_id: string | null;
      /** @description Attempt plan size, fixed when the run starts. */
      attempt_total: number | null;
      scoring: {
        criteria: components['schemas']['Criterion'][];
        policies: components['schemas']['Policy'][];
        detectors: ('prompt_injection' | 'secret_leak' | 'exfiltration')[];
        attempts: components['schemas']['AttemptScore'][];
        judge_calls: number;
        judge_cache_hits: number;
        judge_prompt_version: string | null;
        /** @description Simulated-user messages asked of its model, over the attempts. */
        user_simulator_calls: number;
        /** @description Simulated-user messages served from the cache, over the attempts. */
        user_simulator_cache_hits: number;
        /** @description The simulated user's prompt version (rts-user-1); null without a user_simulator. */
        user_simulator_prompt_version: string | null;
      };
    };
    AttemptScore: {
      attempt: number;
      /** @description null for the baseline attempt. */
      mutation_id: string | null;
      repeat: number;
      /** @enum {string} */
      status: 'passed' | 'failed' | 'error';
      unsafe: boolean;
      checks: {
        criterion: components['schemas']['Criterion'];
        passed: boolean;
        detail: string;
      }[];
      steps: number;
      duration_ms: number;
      error: string | null;
      /**
       * @description Why an attempt is an error: the agent, the llm_judge model or the simulated user's model could not be driven, the run's deadline (the worker's time budget) passed before the attempt ended, or the agent, model, judge or simulated user stayed throttled (429/503) past its limits.max_wait_s; null otherwise.
       * @enum {string|null}
       */
      error_code?: 'target_unavailable' | 'judge_unavailable' | 'user_simulator_unavailable' | 'run_deadline_exceeded' | 'rate_limited' | null;
      /** @description Time spent waiting for a turn under the limits and out 429/503 answers, ms; not part of duration_ms. Absent on attempts stored before it was recorded. */
      throttled_ms?: number;
      /** @description 429/503 answers tried again after waiting. */
      throttle_count?: number;
    };
    /** @description Attempts by number, each cut to about 32 KiB of values (a cut value ends with a marker naming the whole-attempt route); a page ends early, with a next_cursor, past 4 MiB. */
    RunAttempts: {
      /** Format: uuid */
      run_id: string;
      items: components['schemas']['RunAttempt'][];
      /** @description Pass as ?cursor= for the next page; null on the last page. */
      next_cursor: string | null;
    };
    RunAttempt: {
      attempt: number;
      /** @description null for the baseline attempt. */
      mutation_id: string | null;
      repeat: number;
      /** @enum {string} */
      status: 'passed' | 'failed' | 'error';
      unsafe: boolean;
      checks: {
        criterion: components['schemas']['Criterion'];
        passed: boolean;
        detail: string;
      }[];
      steps: number;
      duration_ms: number;
      error: string | null;
      /**
       * @description Why an attempt is an error: the agent, the llm_judge model or the simulated user's model could not be driven, the run's deadline (the worker's time budget) passed before the attempt ended, or the agent, model, judge or simulated user stayed throttled (429/503) past its limits.max_wait_s; null otherwise.
       * @enum {string|null}
       */
      error_code?: 'target_unavailable' | 'judge_unavailable' | 'user_simulator_unavailable' | 'run_deadline_exceeded' | 'rate_limited' | null;
      /** @description Time spent waiting for a turn under the limits and out 429/503 answers, ms; not part of duration_ms. Absent on attempts stored before it was recorded. */
      throttled_ms?: number;
      /** @description 429/503 answers tried again after waiting. */
      throttle_count?: number;
      /** Format: date-time */
      started_at: string;
      /** Format: date-time */
      completed_at: string;
      /** @description The agent's last output (of the last turn it answered). */
      output: string | null;
      /** @description The agent's output for each user turn it answered, turn 1 first; present only when the trace has several user turns (a turn never answered has no entry). */
      turn_outputs?: string[];
      transcript: components['schemas']['TranscriptEntry'][];
      policy_events: components['schemas']['PolicyEvent'][];
      security_events: components['schemas']['SecurityEvent'][];
      /** @description true when the listing cut values of this attempt (the output, turn outputs, messages, served results, tool arguments; see the entries' `truncated`) to bound the page; GET /v1/runs/{run_id}/attempts/{attempt} returns it whole (always false there). */
      truncated: boolean;
    };
    TranscriptEntry:
      | {
          /** @enum {string} */
          type: 'message';
          /** @enum {string} */
          role: 'system' | 'user' | 'assistant';
          content: string | null;
          tool_calls?: components['schemas']['ToolCall'][];
          /** @description What the engine had to repair in the agent's answer. */
          notes?: string[];
          /** @description The user turn this message belongs to, from 1; present only when the trace has several user turns or the campaign a user_simulator (a turn opens with its user message). */
          turn?: number;
          /**
           * @description Present (true) on a user message the simulated user wrote.
           * @enum {boolean}
           */
          simulated?: true;
          /**
           * @description Present in a listing when a value of this entry was cut: a string keeps its start and a marker; tool arguments become {"rts_truncated": "<start of their JSON>..."}.
           * @enum {boolean}
           */
          truncated?: true;
        }
      | {
          /** @enum {string} */
          type: 'tool_result';
          step: number;
          tool_call_id: string;
          tool: string;
          arguments: {
            [key: string]: unknown;
          };
          /** @enum {string} */
          served: 'recorded' | 'denied' | 'unrecorded';
          mutation_id: string | null;
          result?: unknown;
          error: string | null;
          /**
           * @description Present in a listing when a value of this entry was cut: a string keeps its start and a marker; tool arguments become {"rts_truncated": "<start of their JSON>..."}.
           * @enum {boolean}
           */
          truncated?: true;
        };
    PolicyEvent: {
      event_id: string;
      /** Format: uuid */
      run_id: string;
      attempt: number;
      sequence: number;
      step: number;
      policy_id: string;
      /** @enum {string} */
      policy_type: 'deny_tools' | 'allow_tools' | 'argument_constraint' | 'max_tool_calls' | 'no_repeated_calls' | 'flow' | 'unrecorded_tool_call';
      /** @enum {string} */
      decision: 'allow' | 'deny' | 'flag';
      tool: string;
      arguments: {
        [key: string]: unknown;
      };
      reason: string;
      /** Format: date-time */
      created_at: string;
    };
    SecurityEvent: {
      event_id: string;
      /** Format: uuid */
      run_id: string;
      attempt: number;
      sequence: number;
      step: number;
      /** @enum {string} */
      kind: 'prompt_injection' | 'secret_leak' | 'exfiltration';
      /** @enum {string} */
      action: 'detected' | 'blocked' | 'allowed';
      risk: {
        score: number;
        /** @enum {string} */
        level: 'low' | 'medium' | 'high' | 'critical';
      };
      source: {
        /** @enum {string} */
        type: 'tool_result' | 'tool_call' | 'output';
        tool?: string;
      };
      /** @description A short excerpt, secrets masked. */
      evidence: string;
      mutation_id: string | null;
      /** Format: date-time */
      created_at: string;
    };
    /** @description Ordered by attempt, then sequence. */
    PolicyEventPage: {
      /** Format: uuid */
      run_id: string;
      items: components['schemas']['PolicyEvent'][];
      /** @description Pass as ?cursor= for the next page; null on the last page. */
      next_cursor: string | null;
    };
    SecurityEventsByAttempt: {
      /** Format: uuid */
      run_id: string;
      attempts: {
        attempt: number;
        mutation_id: string | null;
        unsafe: boolean;
        events: components['schemas']['SecurityEvent'][];
      }[];
    };
    CiSubmission: components['schemas']['CiBatchSubmitted'] | components['schemas']['CiRunSubmitted'];
    /** @description A batch: the campaign has an eval-set, one run per registered trace. */
    CiBatchSubmitted: {
      /**
       * Format: uuid
       * @description run_ids[0]
       */
      run_id: string;
      run_ids: string[];
      trace_count: number;
      /** Format: uuid */
      ci_batch_id: string;
      /** @enum {string} */
      status: 'queued';
      /** Format: uri */
      dashboard_url: string;
      /** Format: uuid */
      baseline_batch_id: string | null;
      baseline_missing: boolean;
    };
    /** @description A single CI run: the campaign has no eval-set. */
    CiRunSubmitted: {
      /** Format: uuid */
      run_id: string;
      /** @enum {string} */
      status: 'queued';
      /** Format: uuid */
      trace_id: string;
      /** Format: uuid */
      campaign_id: string;
      ci_batch_id: null;
      /** Format: uri */
      dashboard_url: string;
    };
    CiRunRequest: {
      /** Format: uuid */
      campaign_id: string;
      thresholds?: components['schemas']['Thresholds'];
      /** Format: uuid */
      trace_id?: string;
      baseline?: components['schemas']['Baseline'];
      metadata?: {
        commit?: string;
        branch?: string;
        pipeline_url?: string;
      };
    };
    /**
     * @default {
     *       "min_pass_rate": 1,
     *       "max_unsafe": 0,
     *       "max_failures": 0
     *     }
     */
    Thresholds: {
      /** @default 1 */
      min_pass_rate?: number;
      /** @default 0 */
      max_unsafe?: number;
      /** @default 0 */
      max_failures?: number;
      /** @description The Wilson 95 % lower bound of the pass rate must reach this (absent: not checked). */
      min_pass_rate_lower_bound?: number;
      /** @description At most this many scenarios with a flaky cell (absent: not checked). */
      max_flaky?: number;
      /** @description The share of cells whose repeats all passed must reach this (absent: not checked). */
      min_pass_hat_k?: number;
      /** @description At most this many cells regressed against the baseline (absent: 0 when a baseline is given, else not checked). */
      max_regressions?: number;
    };
    /** @description Compare with a batch by id, or with the latest done batch of the same campaign on a branch. */
    Baseline: {
      /** Format: uuid */
      batch_id?: string;
      branch?: string;
    };
    CiRun: {
      /** Format: uuid */
      run_id: string;
      status: components['schemas']['RunStatus'];
      /** @enum {string} */
      decision: 'pending' | 'pass' | 'fail';
      thresholds: components['schemas']['Thresholds'];
      summary: components['schemas']['RunSummary'];
      reasons: string[];
      /** Format: uri */
      dashboard_url: string;
      /** Format: uuid */
      ci_batch_id: string | null;
      /** Format: uuid */
      trace_id: string;
      trace_name: string | null;
      /** Format: uuid */
      campaign_id: string;
      /** @description The campaign version the run runs with, fixed when it was created. */
      campaign_version: number;
      metadata: components['schemas']['CiMetadata'];
      cells: components['schemas']['CiRunCell'][];
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      completed_at: string | null;
    };
    CiMetadata: {
      commit?: string;
      branch?: string;
      pipeline_url?: string;
    };
    /** @description One (trace, mutation) cell: how its repeats ended. */
    CiRunCell: {
      /** @description null for the baseline (unmutated) attempts. */
      mutation_id: string | null;
      passed: number;
      /** @description Repeats that ended. */
      total: number;
      unsafe: number;
      /** @description Repeats whose agent could not be driven. */
      errors: number;
      /** @description Its repeats disagree: some passed, some did not. */
      flaky: boolean;
      /** @description Up to 3 distinct one-line descriptions of what failed. */
      failures: string[];
    };
    CiBatch: {
      /** Format: uuid */
      ci_batch_id: string;
      /** Format: uuid */
      run_id: string;
      /** Format: uuid */
      campaign_id: string;
      /** @description The campaign version every run of the batch runs with, fixed at submission. */
      campaign_version: number;
      /** @enum {string} */
      status: 'queued' | 'running' | 'done';
      /** @enum {string} */
      decision: 'pending' | 'pass' | 'fail';
      pass_rate: number;
      scenario_coverage_pct: number;
      trace_count: number;
      completed_count: number;
      failed_count: number;
      unsafe_count: number;
      /** @description The runs' summed throttled_ms: time waiting under limits and out 429/503 answers. */
      throttled_ms: number;
      /** @description The runs' summed throttle_count: 429/503 answers tried again. */
      throttle_count: number;
      passed_runs: string[];
      failed_runs: string[];
      run_ids: string[];
      thresholds: components['schemas']['Thresholds'];
      reasons: string[];
      /** Format: uri */
      dashboard_url: string;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      completed_at: string | null;
      metadata: components['schemas']['CiMetadata'];
      flaky_count: number | null;
      pass_hat_k: number | null;
      /** @description The 95 % Wilson score interval of pass_rate; null until done. */
      pass_rate_interval: {
        low: number;
        high: number;
        /** @enum {number} */
        confidence: 0.95;
        /** @enum {string} */
        method: 'wilson';
      } | null;
      /** @description The baseline asked for. */
      baseline:
        | {
            /** Format: uuid */
            batch_id: string;
          }
        | {
            branch: string;
          }
        | null;
      /** Format: uuid */
      baseline_batch_id: string | null;
      baseline_missing: boolean;
      comparison: components['schemas']['BatchComparison'];
    };
    /** @description The comparison with the baseline batch; each list keeps its first 50 entries. */
    BatchComparison: {
      /** Format: uuid */
      baseline_batch_id: string;
      baseline_branch: string | null;
      /** @description The campaign version the baseline batch ran with. */
      baseline_campaign_version: number;
      /** @description This batch's campaign version; differs from the baseline's after an update. */
      campaign_version: number;
      pass_rate_delta: number;
      regressed_count: number;
      fixed_count: number;
      new_unsafe_count: number;
      new_count: number;
      dropped_count: number;
      regressed: components['schemas']['CellChange'][];
      fixed: components['schemas']['CellChange'][];
      new_unsafe: {
        /** Format: uuid */
        trace_id: string;
        trace_name: string | null;
        mutation_id: string | null;
        before: string;
        after: string;
        unsafe_before: string;
        unsafe_after: string;
      }[];
      dropped: {
        /** Format: uuid */
        trace_id: string;
        trace_name: string | null;
      }[];
      /** @description Cells of scenarios on both sides whose mutation the baseline did not run: new, never regressions. */
      new_cells_count: number;
      /** @description Cells of scenarios on both sides whose mutation this batch did not run: dropped, never regressions. */
      dropped_cells_count: number;
      new_cells: components['schemas']['CellRef'][];
      dropped_cells: components['schemas']['CellRef'][];
    } | null;
    /** @description A cell that changed: "passed/total" in the baseline and now. */
    CellChange: {
      /** Format: uuid */
      trace_id: string;
      trace_name: string | null;
      mutation_id: string | null;
      before: string;
      after: string;
    };
    /** @description A cell on one side of the comparison only: its mutation exists in one campaign version. */
    CellRef: {
      /** Format: uuid */
      trace_id: string;
      trace_name: string | null;
      mutation_id: string | null;
    };
    CiScenarioPage: {
      /** Format: uuid */
      ci_batch_id: string;
      items: components['schemas']['CiScenario'][];
      /** @description Pass as ?cursor= for the next page; null on the last page. */
      next_cursor: string | null;
    };
    CiScenario: {
      /** Format: uuid */
      trace_id: string;
      trace_name: string | null;
      /** Format: uuid */
      run_id: string;
      /** @enum {string} */
      status: 'completed' | 'failed';
      /** @enum {string} */
      decision: 'pass' | 'fail';
      pass_rate: number;
      pass_hat_k: number;
      flaky: boolean;
      flaky_cells: number;
      unsafe_count: number;
      error: string | null;
      reasons: string[];
      /** Format: uri */
      dashboard_url: string;
      /** @enum {string|null} */
      comparison: 'regressed' | 'fixed' | 'unchanged' | 'new' | null;
      cells: components['schemas']['CiScenarioCell'][];
    };
    /** @description One (trace, mutation) cell of a batch scenario, compared with the baseline. */
    CiScenarioCell: {
      /** @description null for the baseline (unmutated) attempts. */
      mutation_id: string | null;
      passed: number;
      /** @description Repeats that ended. */
      total: number;
      unsafe: number;
      /** @description Repeats whose agent could not be driven. */
      errors: number;
      /** @description Its repeats disagree: some passed, some did not. */
      flaky: boolean;
      /** @description Up to 3 distinct one-line descriptions of what failed. */
      failures: string[];
      /** @enum {string|null} */
      comparison: 'regressed' | 'fixed' | 'unchanged' | 'new' | null;
      /** @description "passed/total" in the baseline batch. */
      before: string | null;
    };
    CiBatchList: {
      items: components['schemas']['CiBatchListItem'][];
      /** @description Pass as ?cursor= for the next page; null on the last page. */
      next_cursor: string | null;
    };
    CiBatchListItem: {
      /** Format: uuid */
      ci_batch_id: string;
      /** Format: uuid */
      campaign_id: string;
      /** @description The campaign version of the batch. */
      campaign_version: number;
      /** @enum {string} */
      status: 'queued' | 'running' | 'done';
      /** @enum {string} */
      decision: 'pending' | 'pass' | 'fail';
      pass_rate: number | null;
      trace_count: number;
      metadata: components['schemas']['CiMetadata'];
      /** Format: uuid */
      baseline_batch_id: string | null;
      flaky_count: number | null;
      pass_hat_k: number | null;
      regressed_count: number | null;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      completed_at: string | null;
      /** Format: uri */
      dashboard_url: string;
    };
    WebhookCreated: {
      webhook_id: string;
      /** @description The https:// URL that receives the signed POSTs. */
      url: string;
      /** @description Subscribed event types, or ["*"] for all. */
      events: (
        | 'trace.created'
        | 'trace.updated'
        | 'run.created'
        | 'run.queued'
        | 'run.completed'
        | 'run.pack_queued'
        | 'run.replay_queued'
        | 'campaign.created'
        | 'campaign.updated'
        | 'ci.decision.pass'
        | 'ci.decision.fail'
        | '*'
      )[];
      /** @description false: paused (nothing is delivered, nothing queued for later). */
      is_enabled: boolean;
      description: string | null;
      /** Format: date-time */
      created_at: string;
      /** @description whsec_ + base64 of 32 random bytes; returned once. null only in an Idempotency-Key replay (Idempotent-Replayed: true), which never holds the secret: rotate it to get a new one. */
      secret: string | null;
      /**
       * @description Present (true) only in an Idempotency-Key replay: the secret was shown by the first answer and is not kept.
       * @enum {boolean}
       */
      secret_withheld?: true;
    };
    WebhookCreate: {
      /**
       * @description https:// URL that receives the signed POSTs
       * @example https://example.com/hooks/rts
       */
      url: string;
      /**
       * @description event types to receive, or ["*"] for all
       * @example [
       *       "run.completed",
       *       "ci.decision.fail"
       *     ]
       */
      events: (
        | 'trace.created'
        | 'trace.updated'
        | 'run.created'
        | 'run.queued'
        | 'run.completed'
        | 'run.pack_queued'
        | 'run.replay_queued'
        | 'campaign.created'
        | 'campaign.updated'
        | 'ci.decision.pass'
        | 'ci.decision.fail'
        | '*'
      )[];
      /** @default true */
      is_enabled?: boolean;
      description?: string | null;
    };
    WebhookList: {
      items: components['schemas']['Webhook'][];
      /** @description Pass as ?cursor= for the next page; null on the last page. */
      next_cursor: string | null;
    };
    /** @description A webhook without its secret, with its last delivery status. */
    Webhook: {
      webhook_id: string;
      /** @description The https:// URL that receives the signed POSTs. */
      url: string;
      /** @description Subscribed event types, or ["*"] for all. */
      events: (
        | 'trace.created'
        | 'trace.updated'
        | 'run.created'
        | 'run.queued'
        | 'run.completed'
        | 'run.pack_queued'
        | 'run.replay_queued'
        | 'campaign.created'
        | 'campaign.updated'
        | 'ci.decision.pass'
        | 'ci.decision.fail'
        | '*'
      )[];
      /** @description false: paused (nothing is delivered, nothing queued for later). */
      is_enabled: boolean;
      description: string | null;
      /** Format: date-time */
      created_at: string;
      /** @description The last failure after all retries: "HTTP 500", "timeout after 5000 ms", "connection error: ECONNREFUSED", "blocked: ...". */
      last_error: string | null;
      /** Format: date-time */
      last_error_at: string | null;
      /** Format: date-time */
      last_delivery_at: string | null;
      last_status: number | null;
    };
    WebhookPatch: {
      /**
       * @description https:// URL that receives the signed POSTs
       * @example https://example.com/hooks/rts
       */
      url?: string;
      /**
       * @description event types to receive, or ["*"] for all
       * @example [
       *       "run.completed",
       *       "ci.decision.fail"
       *     ]
       */
      events?: (
        | 'trace.created'
        | 'trace.updated'
        | 'run.created'
        | 'run.queued'
        | 'run.completed'
        | 'run.pack_queued'
        | 'run.replay_queued'
        | 'campaign.created'
        | 'campaign.updated'
        | 'ci.decision.pass'
        | 'ci.decision.fail'
        | '*'
      )[];
      is_enabled?: boolean;
      description?: string | null;
    };
    WebhookSecret: {
      webhook_id: string;
      /** @description whsec_ + base64 of 32 random bytes; returned once. null only in an Idempotency-Key replay (Idempotent-Replayed: true), which never holds the secret: rotate it to get a new one. */
      secret: string | null;
      /**
       * @description Present (true) only in an Idempotency-Key replay: the secret was shown by the first answer and is not kept.
       * @enum {boolean}
       */
      secret_withheld?: true;
    };
    DeliveryList: {
      items: components['schemas']['Delivery'][];
      /** @description Pass as ?cursor= for the next page; null on the last page. */
      next_cursor: string | null;
    };
    /** @description One delivery log entry (kept 7 days); resends and recoveries append their tries. */
    Delivery: {
      /** Format: uuid */
      delivery_id: string;
      /** @enum {string} */
      event_type:
        | 'trace.created'
        | 'trace.updated'
        | 'run.created'
        | 'run.queued'
        | 'run.completed'
        | 'run.pack_queued'
        | 'run.replay_queued'
        | 'campaign.created'
        | 'campaign.updated'
        | 'ci.decision.pass'
        | 'ci.decision.fail'
        | 'webhook.test';
      /** Format: date-time */
      created_at: string;
      /** @enum {string} */
      outcome: 'succeeded' | 'failed' | 'skipped';
      attempts: {
        /** Format: date-time */
        at: string;
        status_code: number | null;
        error: string | null;
        duration_ms: number;
      }[];
    };
    DeliveryQueued: {
      webhook_id: string;
      /** Format: uuid */
      delivery_id: string;
      /** @enum {string} */
      event_type:
        | 'trace.created'
        | 'trace.updated'
        | 'run.created'
        | 'run.queued'
        | 'run.completed'
        | 'run.pack_queued'
        | 'run.replay_queued'
        | 'campaign.created'
        | 'campaign.updated'
        | 'ci.decision.pass'
        | 'ci.decision.fail'
        | 'webhook.test';
    };
    RecoverQueued: {
      /** @description Failed deliveries queued for one more try by this request. */
      queued: number;
    };
    WebhookRecover: {
      /**
       * Format: date-time
       * @description ISO 8601 timestamp within the last 7 days: failed deliveries created since then are sent again
       */
      since: string;
    };
    /** @description The answer to each request sent (an array for a batch). */
    McpResponse: components['schemas']['McpAnswer'] | components['schemas']['McpAnswer'][];
    /** @description A JSON-RPC 2.0 response: a result or an error. */
    McpAnswer: {
      /** @enum {string} */
      jsonrpc: '2.0';
      id: string | number;
      /** @description initialize: protocolVersion, capabilities, serverInfo; tools/list: tools; tools/call: content, structuredContent, isError. */
      result?: {
        [key: string]: unknown;
      };
      error?: {
        code: number;
        message: string;
        data?: unknown;
      };
    };
    McpError: components['schemas']['JsonRpcError'] | components['schemas']['Error'];
    JsonRpcError: {
      /** @enum {string} */
      jsonrpc: '2.0';
      id: null;
      error: {
        code: number;
        message: string;
        data?: unknown;
      };
    };
    /** @description One JSON-RPC message, or a batch (protocol version 2025-03-26). */
    McpRequest: components['schemas']['McpMessage'] | components['schemas']['McpMessage'][];
    /** @description A JSON-RPC 2.0 request or notification. */
    McpMessage: {
      /** @enum {string} */
      jsonrpc: '2.0';
      /** @description Absent for a notification. */
      id?: string | number;
      /** @description initialize, ping, tools/list, tools/call, or a notifications/* method. */
      method: string;
      params?: {
        [key: string]: unknown;
      };
    };
  };
  responses: never;
  parameters: {
    /** @description Per project. Within 24 h, the same key with the same request (method, path, query string and body) returns the first answer again, without any secret it held; with another request, 409. */
    IdempotencyKey: components['schemas']['IdempotencyKey'];
    /** @description Page size, 1-100 (default 50). */
    Limit: components['schemas']['Limit'];
    /** @description The next_cursor of the previous page (opaque). */
    Cursor: components['schemas']['Cursor'];
  };
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  'get-health': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Health'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'get-openapi': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OpenApiDocument'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'list-traces': {
    parameters: {
      query?: {
        /** @description Page size, 1-100 (default 50). */
        limit?: components['parameters']['Limit'];
        /** @description The next_cursor of the previous page (opaque). */
        cursor?: components['parameters']['Cursor'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TraceList'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description validation_error: limit is not an integer from 1 to 100, or the cursor was not issued by this listing */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'post-traces': {
    parameters: {
      query?: never;
      header?: {
        /** @description Per project. Within 24 h, the same key with the same request (method, path, query string and body) returns the first answer again, without any secret it held; with another request, 409. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['TraceInput'] | components['schemas']['OtlpExport'];
        'application/x-protobuf': string;
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          /** @description "true" when this is the stored answer to an earlier request with the same Idempotency-Key (kept 24 h). */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TraceUpload'];
          'application/x-protobuf': string;
        };
      };
      /** @description Created */
      201: {
        headers: {
          /** @description "true" when this is the stored answer to an earlier request with the same Idempotency-Key (kept 24 h). */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TraceCreated'];
        };
      };
      /** @description invalid_json: the body is not JSON, or not a JSON object; invalid_protobuf: an application/x-protobuf body that is not an OTLP ExportTraceServiceRequest */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description idempotency_conflict: this Idempotency-Key was used with another request (method, path, query string or body), or its first request is still running; conflict: the trace_id exists with different content */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description payload_too_large: the body exceeds 5 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description unsupported_media_type: a body without Content-Type: application/json; unsupported_media_type: also a Content-Encoding other than gzip; OTLP exports may be application/x-protobuf */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description validation_error: the body fails validation (details name each problem); or the Idempotency-Key is longer than 255 characters */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'get-trace': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description UUID v4, read lowercase (one sent in capitals names the same resource); a malformed id is a 404. */
        trace_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Trace'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description not_found: no such resource in this project (unknown id, an id of another project, or a malformed id) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'list-campaigns': {
    parameters: {
      query?: {
        /** @description Page size, 1-100 (default 50). */
        limit?: components['parameters']['Limit'];
        /** @description The next_cursor of the previous page (opaque). */
        cursor?: components['parameters']['Cursor'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CampaignList'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description validation_error: limit is not an integer from 1 to 100, or the cursor was not issued by this listing */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'post-campaigns': {
    parameters: {
      query?: never;
      header?: {
        /** @description Per project. Within 24 h, the same key with the same request (method, path, query string and body) returns the first answer again, without any secret it held; with another request, 409. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CampaignInput'];
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          /** @description "true" when this is the stored answer to an earlier request with the same Idempotency-Key (kept 24 h). */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Campaign'];
        };
      };
      /** @description invalid_json: the body is not JSON, or not a JSON object */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description idempotency_conflict: this Idempotency-Key was used with another request (method, path, query string or body), or its first request is still running */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description payload_too_large: the body exceeds 256 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description unsupported_media_type: a body without Content-Type: application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description validation_error: the body fails validation (details name each problem); or the Idempotency-Key is longer than 255 characters */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'get-campaign': {
    parameters: {
      query?: {
        /** @description Read this version of the campaign (404 for a version that never existed); default the current one. */
        version?: string;
      };
      header?: never;
      path: {
        /** @description UUID v4, read lowercase (one sent in capitals names the same resource); a malformed id is a 404. */
        campaign_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          /** @description The version of the resource, quoted ("3"); send it back as If-Match to update it. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Campaign'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description not_found: no such resource in this project (unknown id, an id of another project, or a malformed id) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description validation_error: a filter is invalid */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'put-campaign': {
    parameters: {
      query?: never;
      header?: {
        /** @description Per project. Within 24 h, the same key with the same request (method, path, query string and body) returns the first answer again, without any secret it held; with another request, 409. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
        /** @description Update only if the resource is still at this version: 3, or its ETag "3" (* matches any); else 412. */
        'If-Match'?: string;
      };
      path: {
        /** @description UUID v4, read lowercase (one sent in capitals names the same resource); a malformed id is a 404. */
        campaign_id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CampaignInput'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          /** @description "true" when this is the stored answer to an earlier request with the same Idempotency-Key (kept 24 h). */
          'Idempotent-Replayed'?: 'true';
          /** @description The version of the resource, quoted ("3"); send it back as If-Match to update it. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Campaign'];
        };
      };
      /** @description invalid_json: the body is not JSON, or not a JSON object */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description not_found: no such resource in this project (unknown id, an id of another project, or a malformed id) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description idempotency_conflict: this Idempotency-Key was used with another request (method, path, query string or body), or its first request is still running */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description precondition_failed: If-Match names a version that is no longer the current one */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description payload_too_large: the body exceeds 256 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description unsupported_media_type: a body without Content-Type: application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description validation_error: the body fails validation (details name each problem); or the Idempotency-Key is longer than 255 characters; or If-Match is not a version number or its quoted ETag */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'list-campaign-versions': {
    parameters: {
      query?: {
        /** @description Page size, 1-100 (default 50). */
        limit?: components['parameters']['Limit'];
        /** @description The next_cursor of the previous page (opaque). */
        cursor?: components['parameters']['Cursor'];
      };
      header?: never;
      path: {
        /** @description UUID v4, read lowercase (one sent in capitals names the same resource); a malformed id is a 404. */
        campaign_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CampaignVersionList'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description not_found: no such resource in this project (unknown id, an id of another project, or a malformed id) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description validation_error: limit is not an integer from 1 to 100, or the cursor was not issued by this listing */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'get-eval-set': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description UUID v4, read lowercase (one sent in capitals names the same resource); a malformed id is a 404. */
        campaign_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EvalSet'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description not_found: no such resource in this project (unknown id, an id of another project, or a malformed id) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'patch-eval-set': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description UUID v4, read lowercase (one sent in capitals names the same resource); a malformed id is a 404. */
        campaign_id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['EvalSetPatch'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EvalSetUpdate'];
        };
      };
      /** @description invalid_json: the body is not JSON, or not a JSON object */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description not_found: no such resource in this project (unknown id, an id of another project, or a malformed id) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description payload_too_large: the body exceeds 256 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description unsupported_media_type: a body without Content-Type: application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description validation_error: the body fails validation (details name each problem); unknown_trace: add_trace_ids names traces that are not in this project (details list them) */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'post-run-pack': {
    parameters: {
      query?: never;
      header?: {
        /** @description Per project. Within 24 h, the same key with the same request (method, path, query string and body) returns the first answer again, without any secret it held; with another request, 409. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
      };
      path: {
        /** @description UUID v4, read lowercase (one sent in capitals names the same resource); a malformed id is a 404. */
        campaign_id: string;
      };
      cookie?: never;
    };
    /** @description May be absent or empty. */
    requestBody?: {
      content: {
        'application/json': components['schemas']['RunPackRequest'];
      };
    };
    responses: {
      /** @description Accepted: queued for processing */
      202: {
        headers: {
          /** @description "true" when this is the stored answer to an earlier request with the same Idempotency-Key (kept 24 h). */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PackQueued'];
        };
      };
      /** @description invalid_json: the body is not JSON, or not a JSON object */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description not_found: no such resource in this project (unknown id, an id of another project, or a malformed id) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description idempotency_conflict: this Idempotency-Key was used with another request (method, path, query string or body), or its first request is still running */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description payload_too_large: the body exceeds 256 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description unsupported_media_type: a body without Content-Type: application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description validation_error: the body fails validation (details name each problem); or the Idempotency-Key is longer than 255 characters; unknown_trace: trace_ids names traces that are not in this project; validation_error: no trace_ids and an empty eval-set */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'list-runs': {
    parameters: {
      query?: {
        /** @description Page size, 1-100 (default 50). */
        limit?: components['parameters']['Limit'];
        /** @description The next_cursor of the previous page (opaque). */
        cursor?: components['parameters']['Cursor'];
        /** @description Only runs of this campaign. */
        campaign_id?: string;
        /** @description Only runs of this trace. */
        trace_id?: string;
        /** @description Only runs in this state. */
        status?: 'queued' | 'running' | 'completed' | 'failed';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RunList'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description validation_error: limit is not an integer from 1 to 100, or the cursor was not issued by this listing; or a filter is invalid */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'post-runs': {
    parameters: {
      query?: never;
      header?: {
        /** @description Per project. Within 24 h, the same key with the same request (method, path, query string and body) returns the first answer again, without any secret it held; with another request, 409. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RunRequest'];
      };
    };
    responses: {
      /** @description Accepted: queued for processing */
      202: {
        headers: {
          /** @description "true" when this is the stored answer to an earlier request with the same Idempotency-Key (kept 24 h). */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RunQueued'];
        };
      };
      /** @description invalid_json: the body is not JSON, or not a JSON object */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description not_found: the trace or the campaign is not in this project */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description idempotency_conflict: this Idempotency-Key was used with another request (method, path, query string or body), or its first request is still running */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description payload_too_large: the body exceeds 256 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description unsupported_media_type: a body without Content-Type: application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description validation_error: the body fails validation (details name each problem); or the Idempotency-Key is longer than 255 characters */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'get-run': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description UUID v4, read lowercase (one sent in capitals names the same resource); a malformed id is a 404. */
        run_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RunDetail'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description not_found: no such resource in this project (unknown id, an id of another project, or a malformed id) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'get-run-attempts': {
    parameters: {
      query?: {
        /** @description Page size, 1-100 (default 50). */
        limit?: components['parameters']['Limit'];
        /** @description The next_cursor of the previous page (opaque). */
        cursor?: components['parameters']['Cursor'];
      };
      header?: never;
      path: {
        /** @description UUID v4, read lowercase (one sent in capitals names the same resource); a malformed id is a 404. */
        run_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RunAttempts'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description not_found: no such resource in this project (unknown id, an id of another project, or a malformed id) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description validation_error: limit is not an integer from 1 to 100, or the cursor was not issued by this listing */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'get-run-attempt': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description UUID v4, read lowercase (one sent in capitals names the same resource); a malformed id is a 404. */
        run_id: string;
        /** @description Attempt number, from 1; anything else is a 404. */
        attempt: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RunAttempt'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description not_found: no such resource in this project (unknown id, an id of another project, or a malformed id); not_found: no attempt stored under this number (yet) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'get-policy-events': {
    parameters: {
      query?: {
        /** @description Page size, 1-100 (default 50). */
        limit?: components['parameters']['Limit'];
        /** @description The next_cursor of the previous page (opaque). */
        cursor?: components['parameters']['Cursor'];
      };
      header?: never;
      path: {
        /** @description UUID v4, read lowercase (one sent in capitals names the same resource); a malformed id is a 404. */
        run_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PolicyEventPage'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description not_found: no such resource in this project (unknown id, an id of another project, or a malformed id) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description validation_error: limit is not an integer from 1 to 100, or the cursor was not issued by this listing */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'get-security-events': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description UUID v4, read lowercase (one sent in capitals names the same resource); a malformed id is a 404. */
        run_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SecurityEventsByAttempt'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description not_found: no such resource in this project (unknown id, an id of another project, or a malformed id) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'post-ci-runs': {
    parameters: {
      query?: never;
      header?: {
        /** @description Per project. Within 24 h, the same key with the same request (method, path, query string and body) returns the first answer again, without any secret it held; with another request, 409. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CiRunRequest'];
      };
    };
    responses: {
      /** @description Accepted: queued for processing */
      202: {
        headers: {
          /** @description "true" when this is the stored answer to an earlier request with the same Idempotency-Key (kept 24 h). */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CiSubmission'];
        };
      };
      /** @description invalid_json: the body is not JSON, or not a JSON object */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description not_found: the campaign, the trace or the baseline batch is not in this project */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description idempotency_conflict: this Idempotency-Key was used with another request (method, path, query string or body), or its first request is still running */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description payload_too_large: the body exceeds 256 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description unsupported_media_type: a body without Content-Type: application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description validation_error: the body fails validation (details name each problem); or the Idempotency-Key is longer than 255 characters; insufficient_scenarios: the eval-set holds fewer traces than min_scenarios (details: required, registered) */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'get-ci-run': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description UUID v4, read lowercase (one sent in capitals names the same resource); a malformed id is a 404. */
        run_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CiRun'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description not_found: no such resource in this project (unknown id, an id of another project, or a malformed id) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'get-ci-batch': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description UUID v4, read lowercase (one sent in capitals names the same resource); a malformed id is a 404. */
        batch_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CiBatch'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description not_found: no such resource in this project (unknown id, an id of another project, or a malformed id) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'get-ci-batch-scenarios': {
    parameters: {
      query?: {
        /** @description Page size, 1-100 (default 50). */
        limit?: components['parameters']['Limit'];
        /** @description The next_cursor of the previous page (opaque). */
        cursor?: components['parameters']['Cursor'];
        /** @description Only scenarios that regressed or were fixed against the baseline, have a flaky cell, failed or passed. */
        status?: 'regressed' | 'fixed' | 'flaky' | 'failed' | 'passed';
      };
      header?: never;
      path: {
        /** @description UUID v4, read lowercase (one sent in capitals names the same resource); a malformed id is a 404. */
        batch_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CiScenarioPage'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description not_found: no such resource in this project (unknown id, an id of another project, or a malformed id) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description validation_error: limit is not an integer from 1 to 100, or the cursor was not issued by this listing; or a filter is invalid */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'list-ci-batches': {
    parameters: {
      query?: {
        /** @description Page size, 1-100 (default 50). */
        limit?: components['parameters']['Limit'];
        /** @description The next_cursor of the previous page (opaque). */
        cursor?: components['parameters']['Cursor'];
        /** @description Only batches of this campaign. */
        campaign_id?: string;
        /** @description Only batches whose metadata.branch is this. */
        branch?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CiBatchList'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description validation_error: limit is not an integer from 1 to 100, or the cursor was not issued by this listing; or a filter is invalid */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'list-webhooks': {
    parameters: {
      query?: {
        /** @description Page size, 1-100 (default 50). */
        limit?: components['parameters']['Limit'];
        /** @description The next_cursor of the previous page (opaque). */
        cursor?: components['parameters']['Cursor'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookList'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description validation_error: limit is not an integer from 1 to 100, or the cursor was not issued by this listing */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'post-webhooks': {
    parameters: {
      query?: never;
      header?: {
        /** @description Per project. Within 24 h, the same key with the same request (method, path, query string and body) returns the first answer again, without any secret it held; with another request, 409. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookCreate'];
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          /** @description "true" when this is the stored answer to an earlier request with the same Idempotency-Key (kept 24 h). */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookCreated'];
        };
      };
      /** @description invalid_json: the body is not JSON, or not a JSON object */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description idempotency_conflict: this Idempotency-Key was used with another request (method, path, query string or body), or its first request is still running */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description payload_too_large: the body exceeds 256 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description unsupported_media_type: a body without Content-Type: application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description validation_error: the body fails validation (details name each problem); or the Idempotency-Key is longer than 255 characters; validation_error: also when the project already has 25 webhooks */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'get-webhook': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description wh_ + 24 lowercase alphanumerics; anything else is a 404. */
        webhook_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Webhook'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description not_found: no such resource in this project (unknown id, an id of another project, or a malformed id) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'delete-webhook': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description wh_ + 24 lowercase alphanumerics; anything else is a 404. */
        webhook_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No content */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description not_found: no such resource in this project (unknown id, an id of another project, or a malformed id) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'patch-webhook': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description wh_ + 24 lowercase alphanumerics; anything else is a 404. */
        webhook_id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookPatch'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Webhook'];
        };
      };
      /** @description invalid_json: the body is not JSON, or not a JSON object */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description not_found: no such resource in this project (unknown id, an id of another project, or a malformed id) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description payload_too_large: the body exceeds 256 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description unsupported_media_type: a body without Content-Type: application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description validation_error: the body fails validation (details name each problem) */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'post-webhook-rotate-secret': {
    parameters: {
      query?: never;
      header?: {
        /** @description Per project. Within 24 h, the same key with the same request (method, path, query string and body) returns the first answer again, without any secret it held; with another request, 409. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
      };
      path: {
        /** @description wh_ + 24 lowercase alphanumerics; anything else is a 404. */
        webhook_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          /** @description "true" when this is the stored answer to an earlier request with the same Idempotency-Key (kept 24 h). */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookSecret'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description not_found: no such resource in this project (unknown id, an id of another project, or a malformed id) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description idempotency_conflict: this Idempotency-Key was used with another request (method, path, query string or body), or its first request is still running */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description validation_error: the Idempotency-Key is longer than 255 characters */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'get-webhook-deliveries': {
    parameters: {
      query?: {
        /** @description Page size, 1-100 (default 50). */
        limit?: components['parameters']['Limit'];
        /** @description The next_cursor of the previous page (opaque). */
        cursor?: components['parameters']['Cursor'];
      };
      header?: never;
      path: {
        /** @description wh_ + 24 lowercase alphanumerics; anything else is a 404. */
        webhook_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DeliveryList'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description not_found: no such resource in this project (unknown id, an id of another project, or a malformed id) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description validation_error: limit is not an integer from 1 to 100, or the cursor was not issued by this listing */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'post-webhook-resend': {
    parameters: {
      query?: never;
      header?: {
        /** @description Per project. Within 24 h, the same key with the same request (method, path, query string and body) returns the first answer again, without any secret it held; with another request, 409. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
      };
      path: {
        /** @description wh_ + 24 lowercase alphanumerics; anything else is a 404. */
        webhook_id: string;
        /** @description UUID v4, read lowercase (one sent in capitals names the same resource); a malformed id is a 404. */
        delivery_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Accepted: queued for processing */
      202: {
        headers: {
          /** @description "true" when this is the stored answer to an earlier request with the same Idempotency-Key (kept 24 h). */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DeliveryQueued'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description not_found: no such resource in this project (unknown id, an id of another project, or a malformed id) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description idempotency_conflict: this Idempotency-Key was used with another request (method, path, query string or body), or its first request is still running; webhook_paused: resume the webhook first; event_unavailable: the event of this delivery was not kept */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description validation_error: the Idempotency-Key is longer than 255 characters */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'post-webhook-recover': {
    parameters: {
      query?: never;
      header?: {
        /** @description Per project. Within 24 h, the same key with the same request (method, path, query string and body) returns the first answer again, without any secret it held; with another request, 409. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
      };
      path: {
        /** @description wh_ + 24 lowercase alphanumerics; anything else is a 404. */
        webhook_id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookRecover'];
      };
    };
    responses: {
      /** @description Accepted: queued for processing */
      202: {
        headers: {
          /** @description "true" when this is the stored answer to an earlier request with the same Idempotency-Key (kept 24 h). */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RecoverQueued'];
        };
      };
      /** @description invalid_json: the body is not JSON, or not a JSON object */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description not_found: no such resource in this project (unknown id, an id of another project, or a malformed id) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description idempotency_conflict: this Idempotency-Key was used with another request (method, path, query string or body), or its first request is still running; webhook_paused: resume the webhook first */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description payload_too_large: the body exceeds 256 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description unsupported_media_type: a body without Content-Type: application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description validation_error: the body fails validation (details name each problem); or the Idempotency-Key is longer than 255 characters */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'post-webhook-test': {
    parameters: {
      query?: never;
      header?: {
        /** @description Per project. Within 24 h, the same key with the same request (method, path, query string and body) returns the first answer again, without any secret it held; with another request, 409. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
      };
      path: {
        /** @description wh_ + 24 lowercase alphanumerics; anything else is a 404. */
        webhook_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Accepted: queued for processing */
      202: {
        headers: {
          /** @description "true" when this is the stored answer to an earlier request with the same Idempotency-Key (kept 24 h). */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DeliveryQueued'];
        };
      };
      /** @description unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description not_found: no such resource in this project (unknown id, an id of another project, or a malformed id) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description idempotency_conflict: this Idempotency-Key was used with another request (method, path, query string or body), or its first request is still running */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description validation_error: the Idempotency-Key is longer than 255 characters */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description service_unavailable: the store, or the check of the credentials, failed for a moment; retry */
      503: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  'post-mcp': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description UUID v4, read lowercase (one sent in capitals names the same resource); a malformed id is a 404. */
        run_id: string;
        /** @description Attempt number, from 1; anything else is a 404. */
        attempt: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['McpRequest'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['McpResponse'];
        };
      };
      /** @description Only notifications or responses were sent: accepted, no body */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description a JSON-RPC parse error or invalid request, or an unsupported MCP-Protocol-Version (a JSON-RPC error body) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['McpError'];
        };
      };
      /** @description the token is unknown, or its attempt is not being invoked (a JSON-RPC error body; nothing is recorded) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['McpError'];
        };
      };
      /** @description the run id is not a UUID, or the Mcp-Session-Id is not this attempt's */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['McpError'];
        };
      };
      /** @description the body is over the limit */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['McpError'];
        };
      };
      /** @description the body is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['McpError'];
        };
      };
      /** @description rate_limited: too many requests; retry later */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (absent on throttling answered by API Gateway itself). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['McpError'];
        };
      };
      /** @description internal_error: an unexpected error, logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['McpError'];
        };
      };
      /** @description Any other error (e.g. 504 when the route times out): the same error body */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['McpError'];
        };
      };
    };
  };
}
