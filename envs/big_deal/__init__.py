"""Big Deal: the market game of resources, company branches, shares and hostile takeovers."""
