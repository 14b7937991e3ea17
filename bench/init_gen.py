#!/usr/bin/env python3
"""An OpenAPI 3.0 document of N resources for timing `idconform init --from-openapi`
(issue 24: 1,000 POST paths, 478 KB, took 78-107 s). Each resource has a collection
path (GET list, POST create), an item path (GET, PATCH, DELETE) and schemas with
references to the previous resource. Usage: bench/init_gen.py N > doc.json"""
import json
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
uuid7 = "^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"
paths, schemas = {}, {}
for i in range(n):
    name = f"thing{i}"
    ref = {"$ref": f"#/components/schemas/T{i}"}
    body = {"content": {"application/json": {"schema": {"$ref": f"#/components/schemas/T{i}Create"}}}}
    ok = {"description": "ok", "content": {"application/json": {"schema": ref}}}
    paths[f"/v1/{name}s"] = {
        "get": {"responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {
            "type": "object", "properties": {"items": {"type": "array", "items": ref}}}}}}}},
        "post": {"requestBody": body, "responses": {"201": ok}},
    }
    paths[f"/v1/{name}s/{{id}}"] = {
        "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"$ref": "#/components/schemas/Id"}}],
        "get": {"responses": {"200": ok}},
        "patch": {"requestBody": body, "responses": {"200": ok}},
        "delete": {"responses": {"204": {"description": "gone"}}},
    }
    props = {"name": {"type": "string"}, "kind": {"type": "string", "enum": ["a", "b"]}}
    if i > 0:
        props[f"thing{i - 1}_id"] = {"$ref": "#/components/schemas/Id"}
    schemas[f"T{i}Create"] = {"type": "object", "required": ["name"], "properties": props}
    schemas[f"T{i}"] = {"allOf": [{"$ref": f"#/components/schemas/T{i}Create"}, {"type": "object", "required": ["id"],
                                   "properties": {"id": {"$ref": "#/components/schemas/Id"},
                                                  "created_at": {"type": "string", "format": "date-time"}}}]}
schemas["Id"] = {"type": "string", "pattern": uuid7}
doc = {"openapi": "3.0.3", "info": {"title": "bench", "version": "1"}, "servers": [{"url": "http://127.0.0.1:8080"}],
       "paths": paths, "components": {"schemas": schemas}}
json.dump(doc, sys.stdout, indent=1)
