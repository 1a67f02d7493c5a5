"""Interview drills: predict-the-output cards proved on the installed JAX, scheduled, and asked in rounds."""
