internal import CSodium
