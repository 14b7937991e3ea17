#!/usr/bin/env python3
"""An OpenAPI 3.0 document of about SIZE megabytes for timing `idconform lint`
(issue 25, section 4), written as JSON or as YAML (block style, the way people
write it). Resources repeat one shape with variations, so every kind of id
site appears many times: collection and item paths with path, query and header
id parameters, request bodies and answers through `$ref`s, schemas whose id
properties are `format: uuid`, patterned (exact v7, loose, v4), integer,
prefixed (not a UUID) or reached through allOf/oneOf, plural id lists,
examples and defaults, and references from each resource to the previous one.
Usage: bench/lint_gen.py SIZE_MB json|yaml > doc"""
import json
import re
import sys

V7 = "^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"
V4 = "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"
LOOSE = "^[0-9a-fA-F-]{36}$"


def resource(i):
    """The paths and schemas of resource i."""
    r = f"#/components/schemas/R{i}"
    prev = f"#/components/schemas/R{i - 1}" if i > 0 else r
    js = lambda ref: {"application/json": {"schema": {"$ref": ref}}}
    list_schema = {"type": "object", "properties": {
        "items": {"type": "array", "items": {"$ref": r}},
        "next_cursor": {"type": "string", "description": "opaque cursor", "nullable": True}}}
    paths = {
        f"/v1/res{i}": {
            "get": {"operationId": f"list{i}", "parameters": [
                {"name": "owner_id", "in": "query", "schema": {"type": "string", "format": "uuid"}},
                {"name": "limit", "in": "query", "schema": {"type": "integer", "maximum": 100}},
                {"$ref": "#/components/parameters/TenantId"}],
                "responses": {"200": {"description": "a page", "content": {"application/json": {"schema": list_schema}}},
                              "400": {"$ref": "#/components/responses/Problem"}}},
            "post": {"operationId": f"create{i}",
                     "requestBody": {"required": True, "content": js(f"#/components/schemas/R{i}Create")},
                     "responses": {"201": {"description": "created", "content": js(r),
                                           "headers": {"Location": {"schema": {"type": "string"}},
                                                       "X-Request-Id": {"schema": {"type": "string"}}}},
                                   "400": {"$ref": "#/components/responses/Problem"}}},
        },
        f"/v1/res{i}/{{res{i}_id}}": {
            "parameters": [{"name": f"res{i}_id", "in": "path", "required": True,
                            "description": f"the id of resource {i}", "schema": {"$ref": "#/components/schemas/Id"}}],
            "get": {"operationId": f"get{i}", "responses": {"200": {"description": "ok", "content": js(r)},
                                                             "404": {"$ref": "#/components/responses/Problem"}}},
            "patch": {"operationId": f"update{i}",
                      "requestBody": {"content": js(f"#/components/schemas/R{i}Create")},
                      "responses": {"200": {"description": "ok", "content": js(r)}}},
            "delete": {"operationId": f"delete{i}", "responses": {"204": {"description": "gone"}}},
        },
    }
    flavour = i % 5
    own_id = [{"$ref": "#/components/schemas/Id"},
              {"type": "string", "format": "uuid", "example": "017F22E2-79B0-7CC3-98C4-DC0C0C07398F"},
              {"type": "string", "pattern": LOOSE, "example": "017f22e2-79b0-7cc3-98c4-dc0c0c07398f"},
              {"type": "integer", "format": "int64", "example": 12345 + i},
              {"type": "string", "pattern": f"^r{i}_[0-9A-Za-z]{{20}}$", "example": f"r{i}_2bYwQx9kTfLmN3pR7sVc"}][flavour]
    create_props = {
        "name": {"type": "string", "minLength": 1, "maxLength": 200, "description": f"the name of thing {i}"},
        "kind": {"type": "string", "enum": ["alpha", "beta", "gamma"]},
        f"res{max(i - 1, 0)}_id": {"allOf": [{"$ref": "#/components/schemas/Id"}],
                                   "description": "the previous resource; optional, or null if none"},
        "parent_uuid": {"type": "string", "format": "uuid", "nullable": True, "default": "00000000-0000-0000-0000-000000000000"},
        "member_ids": {"type": "array", "items": {"type": "string", "format": "uuid"}},
        "labels": {"type": "object", "additionalProperties": {"type": "string"}},
        "external_ref": {"type": "string", "description": "an id in the customer's own system"},
        "v4_token_id": {"type": "string", "pattern": V4, "description": "a random uuid (version 4)"},
        "linked": {"oneOf": [{"$ref": prev}, {"type": "string", "format": "uuid"}]},
        "notes": {"type": "string", "description": "Free text. " * 8},
    }
    schemas = {
        f"R{i}Create": {"type": "object", "required": ["name"], "properties": create_props},
        f"R{i}": {"allOf": [{"$ref": f"#/components/schemas/R{i}Create"}, {
            "type": "object", "required": ["id", "created_at", f"res{max(i - 1, 0)}_id"],
            "properties": {"id": own_id, "created_at": {"type": "string", "format": "date-time"},
                           "etag": {"type": "string"}}}]},
    }
    return paths, schemas


def document(n):
    paths, schemas = {}, {}
    schemas["Id"] = {"type": "string", "format": "uuid", "pattern": V7,
                     "example": "017f22e2-79b0-7cc3-98c4-dc0c0c07398f"}
    schemas["Problem"] = {"type": "object", "properties": {"type": {"type": "string"}, "title": {"type": "string"},
                                                          "trace_id": {"type": "string"}}}
    for i in range(n):
        p, s = resource(i)
        paths.update(p)
        schemas.update(s)
    return {"openapi": "3.0.3", "info": {"title": "lint bench", "version": "1"},
            "servers": [{"url": "http://127.0.0.1:8080"}], "paths": paths,
            "components": {"schemas": schemas, "parameters": {"TenantId": {
                "name": "X-Tenant-Id", "in": "header", "schema": {"type": "string", "format": "uuid"}}},
                           "responses": {"Problem": {"description": "a problem", "content": {
                               "application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}}}}


PLAIN = re.compile(r"^[A-Za-z_/][A-Za-z0-9_ ./{}-]*$")
RESERVED = {"true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"}


def yaml_scalar(v):
    if v is True or v is False:
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, (int, float)):
        return str(v)
    if PLAIN.match(v) and v.lower() not in RESERVED and not v.endswith(" ") and ": " not in v and " #" not in v:
        return v
    if "'" not in v:
        return "'" + v + "'"
    return json.dumps(v)


def yaml_lines(v, indent, out):
    pad = "  " * indent
    if isinstance(v, dict):
        for k, x in v.items():
            key = yaml_scalar(k) if not k.isdigit() else "'" + k + "'"
            if isinstance(x, (dict, list)) and x:
                out.append(f"{pad}{key}:")
                yaml_lines(x, indent + 1, out)
            else:
                out.append(f"{pad}{key}: {yaml_scalar(x) if not isinstance(x, (dict, list)) else json.dumps(x)}")
    else:
        for x in v:
            if isinstance(x, dict) and x:
                sub = []
                yaml_lines(x, indent + 1, sub)
                out.append(pad + "- " + sub[0].lstrip())
                out.extend(sub[1:])
            elif isinstance(x, list) and x:
                out.append(pad + "-")
                yaml_lines(x, indent + 1, out)
            else:
                out.append(f"{pad}- {yaml_scalar(x) if not isinstance(x, (dict, list)) else json.dumps(x)}")


def text(doc, form):
    if form == "json":
        return json.dumps(doc, indent=2) + "\n"
    out = []
    yaml_lines(doc, 0, out)
    return "\n".join(out) + "\n"


def main():
    size = float(sys.argv[1]) if len(sys.argv) > 1 else 1
    form = sys.argv[2] if len(sys.argv) > 2 else "json"
    if form not in ("json", "yaml"):
        sys.exit("usage: lint_gen.py SIZE_MB json|yaml")
    # resources for SIZE megabytes (10^6 bytes) in this form, from the size of 20
    per = (len(text(document(40), form)) - len(text(document(20), form))) / 20
    sys.stdout.write(text(document(max(1, round(size * 1_000_000 / per))), form))


if __name__ == "__main__":
    main()
