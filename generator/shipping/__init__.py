"""What leaves the checkout: vendoring, publishing, serving and building the site, explaining a code."""
