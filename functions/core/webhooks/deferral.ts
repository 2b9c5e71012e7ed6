// A delivery that must not run yet (a recovered delivery whose predecessor is still being delivered): thrown instead of
// waiting, so no bus slot or Lambda invocation is held sleeping. The bus runs the event again later.

/**
 * Thrown by the delivery function when an event must run later. Nothing has been claimed or sent when it is thrown,
 * so running the event again is safe. The local bus requeues it after `retryAfterMs` (or sooner, when another delivery
 * of the same project ends); in the cloud Lambda's asynchronous retry runs it again (about a minute later).
 */
export class DeliveryDeferredError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(message);
    this.name = 'DeliveryDeferredError';
  }
}

/** True for a deferral (by name too: a handler module loaded apart from the bus has its own copy of the class). */
export function isDeliveryDeferred(err: unknown): err is DeliveryDeferredError {
  return (
    err instanceof DeliveryDeferredError ||
    (err instanceof Error && err.name === 'DeliveryDeferredError' && typeof (err as DeliveryDeferredError).retryAfterMs === 'number')
  );
}
