// A lingering close for the local gateway's refused uploads. Node ends a `Connection: close` response by closing the
// socket once the answer is written; a socket closed while its peer still sends is reset, and a reset connection loses
// what its peer had not read yet: a sender busy writing its upload could lose the very answer that tells it to stop.
// Here the close waits instead, as nginx's lingering_close does: the answer goes out, the write side is shut (the
// sender sees the end), and what still arrives is read and dropped until the sender closes, for at most LINGER_MS.
import type { Socket } from 'node:net';

/** The longest a refused upload's connection stays open after its answer, ms. */
export const LINGER_MS = 5_000;

/**
 * Makes the close Node starts after the response on `socket` (its `destroySoon`) a lingering one: shut the write side,
 * keep reading (the HTTP parser drops the rest of the body: the response is sent, so Node dumps the request), and
 * destroy the socket when the sender closes or `ms` passed.
 */
export function lingerOnClose(socket: Socket, ms = LINGER_MS): void {
  socket.destroySoon = function lingeringClose(this: Socket) {
    if (this.writable) this.end();
    if (this.destroyed) return;
    if (this.readableEnded) return void this.destroy();
    const timer = setTimeout(() => this.destroy(), ms);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
    this.once('end', () => this.destroy());
    this.resume();
  };
}
