"""The fed's website: a static site built from the league (`build`)."""
