"""Vaults: crews, vault piles, the Police station and disrupt cards."""
