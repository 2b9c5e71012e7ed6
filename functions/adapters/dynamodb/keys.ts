// Every pk/sk/gsi key of the single table is built here. Project ids are part of every entity key,
// so another project's id can never address a record (ownership is structural) and no project is a hot partition.
//
// Access patterns:
//  1. API key by hash (authorizer)            pk=APIKEY#<sha256>            sk=APIKEY
//  2. project by id                           pk=PROJECT#<pid>              sk=PROJECT
//  3. key by id within a project (revoke)     pk=PROJECT#<pid>              sk=KEY#<key_id>
//  4. trace meta / chunks of one content     pk=TRACE#<pid>#<tid>          sk=META | CHUNK#<content hash, 12 hex>#<nnnn>
//     and an OTLP trace's merged spans                                     sk=SPANS#<tag, 12 hex>#<nnnn> (after META)
//  5. traces of a project, newest first       gsi1pk=TRACES#<pid>           gsi1sk=<created_at>#<tid>
//  6. campaign                                pk=CAMPAIGN#<pid>#<cid>       sk=META
//  7. eval-set pool of a campaign             pk=CAMPAIGN#<pid>#<cid>       sk=EVAL#<tid>
//  8. campaigns of a project, newest first    gsi1pk=CAMPAIGNS#<pid>        gsi1sk=<created_at>#<cid>
// 27. versions of a campaign, newest first    pk=CAMPAIGN#<pid>#<cid>       sk=V#<nnnnnn> (past versions; the current one
//     is META's, docs/campaigns-and-replay.md#versions)
//  9. run / its completion's published mark   pk=RUN#<pid>#<rid>            sk=META | PUBLISHED (after META)
// 10. attempts of a run, with their policy    pk=RUN#<pid>#<rid>            sk=ATTEMPT#<nnnn>
//     and security events (compressed inside the item; listed by attempt, then sequence; 11-12 retired)
// 13. runs of a project, newest first         gsi1pk=RUNS#<pid>             gsi1sk=<created_at>#<rid>
// 14. CI batch / its per-run completion marks pk=BATCH#<pid>#<bid>          sk=META | DONE#<rid> | COUNT (its done hint)
//     and its scenario comparisons (chunks)                                sk=CMP#<nnnn> (100 scenarios each)
// 15. run-pack                                pk=PACK#<pid>#<pack_id>       sk=META
// 16. idempotency record (TTL 24 h)           pk=IDEM#<pid>#<sha256(key)>   sk=IDEM
// 17. webhooks of a project                   pk=WEBHOOKS#<pid>             sk=WH#<webhook_id>
//     and its limit's slots (one per webhook)  pk=WEBHOOKS#<pid>             sk=SLOT#<nn>
// 18. delivery log of a webhook (TTL 7 days)  pk=WHLOG#<pid>#<webhook_id>   sk=DLV#<created_at>#<delivery_id>
// 19. delivery dedup per bus event (TTL)      pk=WHDEDUP#<webhook_id>#<event id> sk=DEDUP
//     (also the claims of recover, "recover:<delivery_id>:<version>", and of resend commands, "command:<bus id>")
// 20. deployment-wide settings (cursor key)  pk=CONFIG#<name>               sk=CONFIG
// 21. CI batches of a campaign, newest first  pk=BATCHLIST#<pid>#<cid>      sk=<created_at>#<bid>
//     and of a project, newest first          gsi1pk=BATCHES#<pid>          gsi1sk=<created_at>#<bid>
//     (listing entries beside the META: the fields a list shows, without the run ids)
// 22. cached llm_judge verdict (TTL 30 days) pk=JUDGE#<pid>#<sha256 of model, rubric, shown text> sk=JUDGE
// 23. delivery log entry by id (TTL 7 days)   pk=WHLOG#<pid>#<webhook_id>   sk=ID#<delivery_id> (-> its created_at)
// 24. kept event body for resend (TTL 7 days) pk=WHEVT#<pid>#<event id>     sk=EVENT
// 25. a project's rate-limit window (TTL)     pk=LIMIT#<pid>#<counter name>  sk=W#<window start, epoch s>
// 26. a project's leased slots of a scope     pk=LEASE#<pid>#<scope>         sk=SLOT#<nnnn>
//     (replay workers' per-project share, target concurrency slots, a run's attempt claims: scope
//     attempts:<run_id>, slot = attempt number; expiring, TTL a day after the lease ends)
// 28. cached simulated-user message          pk=SIMUSER#<pid>#<sha256 of prompt version, model, conversation> sk=SIMUSER
//     (TTL 30 days)
// 29. the MCP session of an mcp attempt       pk=MCP#<rid>#<attempt>          sk=SESSION
//     (keyed by its run, a server-made UUID, as its URL names it; the item holds its project, and its token's hash is
//     the credential; TTL a day after the run's last invoke could end)

const pad = (n: number, width: number) => String(n).padStart(width, '0');

export const keys = {
  apiKey: (hash: string) => ({ pk: `APIKEY#${hash}`, sk: 'APIKEY' }),
  project: (pid: string) => ({ pk: `PROJECT#${pid}`, sk: 'PROJECT' }),
  projectKey: (pid: string, keyId: string) => ({ pk: `PROJECT#${pid}`, sk: `KEY#${keyId}` }),

  traceMeta: (pid: string, tid: string) => ({ pk: `TRACE#${pid}#${tid}`, sk: 'META' }),
  /** Chunks carry their content's hash, so an upload of other content under the same id never overwrites them. */
  traceChunk: (pid: string, tid: string, contentHash: string, n: number) => ({
    pk: `TRACE#${pid}#${tid}`,
    sk: `CHUNK#${contentHash.slice(0, 12)}#${pad(n, 4)}`,
  }),
  traceChunkPrefix: (contentHash: string) => `CHUNK#${contentHash.slice(0, 12)}#`,
  /** An OTLP trace's spans, gzip-compressed JSON in chunks, tagged like the steps' chunks; sorted after META. */
  traceSpans: (pid: string, tid: string, tag: string, n: number) => ({ pk: `TRACE#${pid}#${tid}`, sk: `SPANS#${tag.slice(0, 12)}#${pad(n, 4)}` }),
  traceSpansPrefix: (tag: string) => `SPANS#${tag.slice(0, 12)}#`,
  traceList: (pid: string, createdAt: string, tid: string) => ({ gsi1pk: `TRACES#${pid}`, gsi1sk: `${createdAt}#${tid}` }),
  traceListPk: (pid: string) => `TRACES#${pid}`,

  campaign: (pid: string, cid: string) => ({ pk: `CAMPAIGN#${pid}#${cid}`, sk: 'META' }),
  evalMember: (pid: string, cid: string, tid: string) => ({ pk: `CAMPAIGN#${pid}#${cid}`, sk: `EVAL#${tid}` }),
  evalMemberPrefix: 'EVAL#',
  /** A past version's definition, frozen; sorted after META and the eval-set members. */
  campaignVersion: (pid: string, cid: string, version: number) => ({ pk: `CAMPAIGN#${pid}#${cid}`, sk: `V#${pad(version, 6)}` }),
  campaignVersionPrefix: 'V#',
  campaignList: (pid: string, createdAt: string, cid: string) => ({ gsi1pk: `CAMPAIGNS#${pid}`, gsi1sk: `${createdAt}#${cid}` }),
  campaignListPk: (pid: string) => `CAMPAIGNS#${pid}`,

  run: (pid: string, rid: string) => ({ pk: `RUN#${pid}#${rid}`, sk: 'META' }),
  /** The mark that a run's completion was published: an item apart, so that writing it is not billed at the run's size. */
  runPublished: (pid: string, rid: string) => ({ pk: `RUN#${pid}#${rid}`, sk: 'PUBLISHED' }),
  attempt: (pid: string, rid: string, attempt: number) => ({ pk: `RUN#${pid}#${rid}`, sk: `ATTEMPT#${pad(attempt, 4)}` }),
  attemptPrefix: 'ATTEMPT#',
  runList: (pid: string, createdAt: string, rid: string) => ({ gsi1pk: `RUNS#${pid}`, gsi1sk: `${createdAt}#${rid}` }),
  runListPk: (pid: string) => `RUNS#${pid}`,

  batch: (pid: string, bid: string) => ({ pk: `BATCH#${pid}#${bid}`, sk: 'META' }),
  batchCounter: (pid: string, bid: string) => ({ pk: `BATCH#${pid}#${bid}`, sk: 'COUNT' }),
  batchDone: (pid: string, bid: string, rid: string) => ({ pk: `BATCH#${pid}#${bid}`, sk: `DONE#${rid}` }),
  batchDonePrefix: 'DONE#',
  batchComparison: (pid: string, bid: string, n: number) => ({ pk: `BATCH#${pid}#${bid}`, sk: `CMP#${pad(n, 4)}` }),
  batchComparisonPrefix: 'CMP#',
  batchListing: (pid: string, cid: string, createdAt: string, bid: string) => ({
    pk: `BATCHLIST#${pid}#${cid}`,
    sk: `${createdAt}#${bid}`,
    gsi1pk: `BATCHES#${pid}`,
    gsi1sk: `${createdAt}#${bid}`,
  }),
  batchListingPk: (pid: string, cid: string) => `BATCHLIST#${pid}#${cid}`,
  batchListPk: (pid: string) => `BATCHES#${pid}`,
  pack: (pid: string, packId: string) => ({ pk: `PACK#${pid}#${packId}`, sk: 'META' }),

  idempotency: (pid: string, keyHash: string) => ({ pk: `IDEM#${pid}#${keyHash}`, sk: 'IDEM' }),

  webhook: (pid: string, whId: string) => ({ pk: `WEBHOOKS#${pid}`, sk: `WH#${whId}` }),
  webhooksPk: (pid: string) => `WEBHOOKS#${pid}`,
  webhookPrefix: 'WH#',
  webhookSlot: (pid: string, n: number) => ({ pk: `WEBHOOKS#${pid}`, sk: `SLOT#${pad(n, 2)}` }),
  webhookSlotPrefix: 'SLOT#',
  delivery: (pid: string, whId: string, createdAt: string, deliveryId: string) => ({
    pk: `WHLOG#${pid}#${whId}`,
    sk: `DLV#${createdAt}#${deliveryId}`,
  }),
  deliveriesPk: (pid: string, whId: string) => `WHLOG#${pid}#${whId}`,
  deliveryPrefix: 'DLV#',
  deliveryById: (pid: string, whId: string, deliveryId: string) => ({ pk: `WHLOG#${pid}#${whId}`, sk: `ID#${deliveryId}` }),
  keptEvent: (pid: string, eventId: string) => ({ pk: `WHEVT#${pid}#${eventId}`, sk: 'EVENT' }),
  deliveryDedup: (whId: string, eventId: string) => ({ pk: `WHDEDUP#${whId}#${eventId}`, sk: 'DEDUP' }),

  judgeVerdict: (pid: string, hash: string) => ({ pk: `JUDGE#${pid}#${hash}`, sk: 'JUDGE' }),
  simulatedUserMessage: (pid: string, hash: string) => ({ pk: `SIMUSER#${pid}#${hash}`, sk: 'SIMUSER' }),

  config: (name: string) => ({ pk: `CONFIG#${name}`, sk: 'CONFIG' }),

  rateWindow: (pid: string, name: string, windowStart: number) => ({ pk: `LIMIT#${pid}#${name}`, sk: `W#${windowStart}` }),

  leaseSlot: (pid: string, scope: string, n: number) => ({ pk: `LEASE#${pid}#${scope}`, sk: `SLOT#${pad(n, 4)}` }),
  leasesPk: (pid: string, scope: string) => `LEASE#${pid}#${scope}`,
  mcpSession: (rid: string, attempt: number) => ({ pk: `MCP#${rid}#${attempt}`, sk: 'SESSION' }),
} as const;

/** Attributes that are storage plumbing and never leave the adapter. */
export const STORAGE_ATTRIBUTES = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'expires_at', 'entity'] as const;

export function stripKeys<T>(item: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...item };
  for (const a of STORAGE_ATTRIBUTES) delete out[a];
  return out as T;
}
