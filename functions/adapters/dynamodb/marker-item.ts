// How a CI batch's completion marker is stored in its DONE item: the marker's JSON raw-deflated with a preset
// dictionary (`body_z`, its version in `body_dict`), the run id left to the key. Markers stored before, as plain
// attributes, read as they were. A marker of the sample campaign is ~0.6 KB instead of ~1.3 KB: 1 write unit, not 2
// (docs/benchmarks.md#what-a-ci-batch-costs-in-aws).
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { BatchMarker } from '../../core/ci/types';
import { MARKER_DICTIONARIES, MARKER_DICTIONARY_VERSION, dictionary } from './dictionaries';
import { keys, stripKeys } from './keys';

/** The marker from its compressed body; `runId` is the run of the item's key. */
function inflateMarker(body: Uint8Array, version: unknown, runId: string): BatchMarker {
  const text = inflateRawSync(Buffer.from(body), { dictionary: dictionary(MARKER_DICTIONARIES, version) }).toString('utf8');
  const m = JSON.parse(text) as Record<string, unknown>;
  return { ...m, run_id: m.run_id === 0 ? runId : m.run_id } as unknown as BatchMarker;
}

/**
 * The item attributes of a marker (keys and entity aside): compressed when that reads back as the same marker, else
 * the marker's own attributes.
 */
export function markerAttributes(marker: BatchMarker): Record<string, unknown> {
  // The run id is the key's: 0 holds its place (the marker's keys keep their order).
  const json = JSON.stringify({ ...marker, run_id: 0 });
  const body = deflateRawSync(Buffer.from(json), { level: 9, dictionary: MARKER_DICTIONARIES[MARKER_DICTIONARY_VERSION] });
  const same = JSON.stringify(inflateMarker(body, MARKER_DICTIONARY_VERSION, marker.run_id)) === JSON.stringify(marker);
  return same ? { body_z: body, body_dict: MARKER_DICTIONARY_VERSION } : { ...marker };
}

/** A stored marker item as the core sees it, whatever format it was written in. */
export function decodeMarker(item: Record<string, unknown>): BatchMarker {
  if (item.body_dict === undefined) return stripKeys<BatchMarker>(item);
  return inflateMarker(item.body_z as Uint8Array, item.body_dict, String(item.sk).slice(keys.batchDonePrefix.length));
}
