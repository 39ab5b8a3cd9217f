/**
 * Bytes straight onto a socket, for requests no HTTP client will send
 * (a request line of 100 KB, a broken request line, invalid bytes), and the
 * answer read back as an Exchange for the contract checker.
 */
import { connect } from 'node:net';
import { toExchange, type Exchange } from './contract-client.js';

export function rawExchange(port: number, method: string, target: string, bytes: string | Buffer, timeoutMs = 5_000): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => {
      // A reset after the answer is fine; the answer is what is checked.
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split === -1) {
        reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
        return;
      }
      const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
      const status = Number(statusLine.split(' ')[1]);
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve(toExchange(method, target, status, headers, text.slice(split + 4)));
    });
    socket.write(bytes);
  });
}
