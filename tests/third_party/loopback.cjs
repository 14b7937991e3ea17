// Preloaded into the third-party servers by tests/e2e/third_party.sh
// (NODE_OPTIONS=--require): every server socket listens on 127.0.0.1, even
// when the server ignores its own host option (json-server 1.0 does), so a
// test never opens a port beyond the loopback interface.
'use strict';
const net = require('net');
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (args.length > 0 && typeof args[0] === 'object' && args[0] !== null && !Array.isArray(args[0])) {
    if (args[0].path === undefined) args[0] = Object.assign({}, args[0], { host: '127.0.0.1' });
  } else if (typeof args[0] === 'number' || (typeof args[0] === 'string' && /^\d+$/.test(args[0]))) {
    const port = Number(args[0]);
    const rest = args.slice(1).filter((a) => typeof a === 'function' || typeof a === 'number');
    const cb = rest.find((a) => typeof a === 'function');
    return cb ? listen.call(this, port, '127.0.0.1', cb) : listen.call(this, port, '127.0.0.1');
  }
  return listen.apply(this, args);
};
