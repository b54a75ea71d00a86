import { connect } from 'node:net';

/** Whether a TCP connection to 127.0.0.1:`port` is accepted now. */
export function acceptsConnection(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
