"""`reedboard-relay`: every board on an MQTT broker, kept durably, broadcast over HTTP."""
