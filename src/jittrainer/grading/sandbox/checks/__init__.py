"""The check toolkit's internals; exercises import ``jittrainer.authoring``, not these modules."""
