# bash completion for idconform (installed as
# share/bash-completion/completions/idconform). Subcommands and flags are read
# from `idconform --help` / `idconform SUB --help` of the idconform being
# completed, so the completion never disagrees with the binary; values of
# --kind, --format and --shard and file arguments are completed here.
_idconform_flags() {
    # every long and short option in the help text of "$@"
    "$1" "${@:2}" --help 2>/dev/null | grep -oE '(^|[ ,])--?[A-Za-z][A-Za-z0-9-]*' | sed 's/^[ ,]//' | sort -u
}

_idconform() {
    local cur prev cmd sub i
    COMPREPLY=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    cmd=${COMP_WORDS[0]}
    sub=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            -*) ;;
            *) sub=${COMP_WORDS[i]}; break ;;
        esac
    done
    if [ -z "$sub" ]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--help --version" -- "$cur"))
        else
            local subs
            subs=$("$cmd" --help 2>/dev/null | sed -n '/^Subcommands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
            COMPREPLY=($(compgen -W "$subs" -- "$cur"))
        fi
        return 0
    fi
    case $prev in
        --kind|-k)
            if [ "$sub" = gen ]; then
                COMPREPLY=($(compgen -W "v7 v4 ulid viewable uuidv8-legacy" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "uuid uuidv1 uuidv3 uuidv4 uuidv5 uuidv6 uuidv7 uuidv8 ulid viewable uuidv8-legacy v1 v3 v4 v5 v6 v7 v8" -- "$cur"))
            fi
            return 0 ;;
        --shard)
            COMPREPLY=($(compgen -W "1/2 2/2 1/3 2/3 3/3 1/4 2/4 3/4 4/4" -- "$cur"))
            return 0 ;;
        --target|--junit|--json|-o|--output|--cacert|--cert|--key|--sarif|--html)
            COMPREPLY=($(compgen -f -- "$cur"))
            return 0 ;;
        --exit-codes)
            COMPREPLY=($(compgen -W "markdown man" -- "$cur"))
            return 0 ;;
        --packs-dir)
            COMPREPLY=($(compgen -d -- "$cur"))
            return 0 ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_idconform_flags "$cmd" "$sub")" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
    return 0
}
complete -o filenames -F _idconform idconform
