"""Optional accounts: sign-up and sign-in with a password or a passkey, the session cookie, the seats an account
holds.

:mod:`.routes` and :mod:`.repo` (accounts, sign-ins, held seats); :mod:`.signin` (passwords, the session cookie
and the guards of every change made with it); :mod:`.passkey_routes` and :mod:`.passkey_repo` (WebAuthn).
"""
