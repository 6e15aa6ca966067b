"""The board's serial link to a PC: frames with a CRC-32, versioned messages with sequence
numbers, both ends as pure state machines (bytes in, messages out; messages in, bytes
out), and a thin serial transport. docs/protocol.md specifies the wire format."""
