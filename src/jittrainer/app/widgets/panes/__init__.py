"""One module per verdict pane. Each turns a Verdict into Content and knows nothing about the app."""
