"""What the account page shows of a sign-in: roughly where from and on what, never enough to track anybody.

The address is cut to its network (IPv4's first three numbers, IPv6's first three groups), and the browser's
``User-Agent`` to one browser and one system out of a short list, which the page words from the catalog
(``account.device.*``); anything else is ``other``.
"""

from __future__ import annotations

import ipaddress

BROWSERS = (
    ("edg/", "edge"),
    ("opr/", "opera"),
    ("samsungbrowser/", "samsung"),
    ("firefox/", "firefox"),
    ("fxios/", "firefox"),
    ("crios/", "chrome"),
    ("chromium/", "chromium"),
    ("chrome/", "chrome"),
    ("safari/", "safari"),
)
"""Looked for in this order: each browser's agent also names the ones it grew from."""
SYSTEMS = (
    ("android", "android"),
    ("iphone", "ios"),
    ("ipad", "ios"),
    ("cros", "chromeos"),
    ("mac os x", "macos"),
    ("macintosh", "macos"),
    ("windows", "windows"),
    ("linux", "linux"),
)


def browser(agent: str | None) -> str:
    said = (agent or "").lower()
    return next((name for mark, name in BROWSERS if mark in said), "other")


def system(agent: str | None) -> str:
    said = (agent or "").lower()
    return next((name for mark, name in SYSTEMS if mark in said), "other")


def network(address: str | None) -> str | None:
    """The address's network, as ``203.0.113.*`` or ``2001:db8:85a3:*``; None when unknown or not an address."""
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if isinstance(ip, ipaddress.IPv4Address):
        return ".".join(str(ip).split(".")[:3]) + ".*"
    return ":".join(ip.exploded.split(":")[:3]) + ":*"
