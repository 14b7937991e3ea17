// Preloaded into json-server 1.0 by tests/e2e/third_party.sh: its ids are
// two random bytes (randomBytes(2) in its service.js) with no check that the
// id is free, so about one test run in ten minted the same id twice. That is
// a true DATA-ID-006 violation, but one that shows by chance, and a shared id
// then breaks other cases at random (the live entity deleted by another
// case's cleanup). Here two-byte requests walk a full-period permutation of
// 0..65535 instead: ids still look random, never repeat within a run, and the
// test's outcome no longer depends on luck. Larger requests are untouched.
'use strict';
const crypto = require('crypto');
const { syncBuiltinESMExports } = require('module');
const random_bytes = crypto.randomBytes;
let state = 0x5a17;
crypto.randomBytes = function (size, callback) {
  if (size !== 2 || callback !== undefined) return random_bytes.apply(this, arguments);
  state = (state * 25173 + 13849) & 0xffff; // a = 1 mod 4, c odd: full period
  return Buffer.from([state >> 8, state & 0xff]);
};
syncBuiltinESMExports(); // json-server imports { randomBytes } from node:crypto
