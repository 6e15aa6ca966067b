"""A club's own certificate authority and the broker's certificate signed by it, with the
`cryptography` package. The boards and the relay trust only this CA (their `ca_file`),
so a broker that is not the club's cannot pass for it."""

from __future__ import annotations

import datetime
import ipaddress
from dataclasses import dataclass

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

VALID_DAYS = 3650  # a club sets its broker up once; ten years outlasts its boards' cards


@dataclass(frozen=True)
class Pem:
    ca_cert: bytes
    server_key: bytes
    server_cert: bytes


def make_certificates(host: str, now: datetime.datetime | None = None) -> Pem:
    """A new CA, and a server certificate for `host` (a name or an address) signed by it.
    The CA's own key is not returned: nothing needs it again, and a key never written
    cannot be stolen (a new set-up makes a new CA)."""
    now = now or datetime.datetime.now(datetime.UTC)
    until = now + datetime.timedelta(days=VALID_DAYS)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "reedboard club CA")])
    ca_cert = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now)
        .not_valid_after(until)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(_signing_only(), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), False)
        .sign(ca_key, hashes.SHA256())
    )
    server_key = ec.generate_private_key(ec.SECP256R1())
    server_cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host)]))
        .issuer_name(ca_name)
        .public_key(server_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now)
        .not_valid_after(until)
        .add_extension(x509.SubjectAlternativeName([_alt_name(host)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), False
        )
        .sign(ca_key, hashes.SHA256())
    )
    return Pem(
        ca_cert=ca_cert.public_bytes(serialization.Encoding.PEM),
        server_key=server_key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ),
        server_cert=server_cert.public_bytes(serialization.Encoding.PEM),
    )


def _signing_only() -> x509.KeyUsage:
    """A CA's key signs certificates (and their revocation lists), nothing else."""
    usage = dict.fromkeys(
        ("content_commitment", "key_encipherment", "data_encipherment", "key_agreement"), False
    )
    return x509.KeyUsage(
        digital_signature=True,
        key_cert_sign=True,
        crl_sign=True,
        encipher_only=False,
        decipher_only=False,
        **usage,
    )


def _alt_name(host: str) -> x509.GeneralName:
    """An address is checked against an IP entry, a name against a DNS entry."""
    try:
        return x509.IPAddress(ipaddress.ip_address(host))
    except ValueError:
        return x509.DNSName(host)
