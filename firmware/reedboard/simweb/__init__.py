"""`reedboard sim`: the whole firmware on fake hardware, played from a web page."""
