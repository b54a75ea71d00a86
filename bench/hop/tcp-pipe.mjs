// Below the floor of any HTTP proxy: a TCP relay. Each front connection gets one upstream connection and the bytes
// are piped both ways, nothing read as HTTP. No gateway could be this (it must at least route by request); it is
// here so that run.sh (PIPE=1) shows what relaying alone, one more process and two more loopback sockets, costs.
//   usage: PORT=<port> UP=<upstream url> node tcp-pipe.mjs
import { connect, createServer } from 'node:net';

const up = new URL(process.env.UP);
createServer((front) => {
  front.setNoDelay(true);
  const back = connect(Number(up.port), up.hostname);
  back.setNoDelay(true);
  front.pipe(back);
  back.pipe(front);
  const end = () => {
    front.destroy();
    back.destroy();
  };
  front.on('error', end).on('close', end);
  back.on('error', end).on('close', end);
}).listen(Number(process.env.PORT), '127.0.0.1');
