"""Optional accounts: sign-up and sign-in with a password or a passkey, the session cookie, the seats an account
holds, and the guards a public server needs.

:mod:`.routes` and :mod:`.repo` (accounts, sign-ins, held seats, the password changed); :mod:`.session` (what every
signed-in route shares); :mod:`.signin` (hashing, the session and device cookies, the guards of every change);
:mod:`.guard` and :mod:`.guard_repo` (wrong passwords counted in the database, the devices that signed in before);
:mod:`.passwords` (which passwords an account may take); :mod:`.device_routes` and :mod:`.devices` (the signed-in
devices, listed and signed out); :mod:`.passkey_routes` and :mod:`.passkey_repo` (WebAuthn).
"""
