"""One file per revision of the schema, each naming the one before it (``down_revision``)."""
