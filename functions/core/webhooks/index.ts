// The webhook domain in one import: schemas, signing, matching, delivery policy, fan-out and the management service.
export * from './schema';
export * from './view';
export * from './signing';
export * from './matching';
export * from './policy';
export * from './ports';
export * from './delivery';
export * from './service';
