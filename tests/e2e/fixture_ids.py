"""Ids the e2e fixture servers mint (imported by the *_server.py beside it)."""
import secrets
import time
import uuid


def uuid7():
    """A fresh RFC 9562 UUIDv7: 48-bit Unix milliseconds, version 7, variant 10."""
    ms = int(time.time() * 1000)
    b = bytearray(ms.to_bytes(6, "big") + secrets.token_bytes(10))
    b[6] = (b[6] & 0x0F) | 0x70
    b[8] = (b[8] & 0x3F) | 0x80
    return str(uuid.UUID(bytes=bytes(b)))
